import { MemValidationError } from '../../errors/errors.ts';
import { neuralyzerStrategy, summarizerStrategy } from './builtin-strategies.ts';
import type { LongTermStrategy, LongTermTriggerConfig } from './long-term-strategy.ts';

// biome-ignore lint/suspicious/noExplicitAny: a registry holds strategies of any config type.
export type AnyLongTermStrategy = LongTermStrategy<any>;

/** Long-term strategies by id: the built-in ones and those the user registered. */
export type LongTermStrategies = ReadonlyMap<string, AnyLongTermStrategy>;

const BUILT_IN: readonly AnyLongTermStrategy[] = [summarizerStrategy, neuralyzerStrategy];
const ID = /^[a-z][a-z0-9_]{0,63}$/;
const SHARED = new Set<keyof LongTermTriggerConfig>(['long_term_memory_id']);

/**
 * Checks the strategies a user registers and adds the built-in ones. Ids are snake_case like
 * the built-in ones (`[a-z][a-z0-9_]*`, at most 64 characters), unique, and never a built-in id.
 */
export function longTermRegistry(
  registered: unknown = [],
  field = 'longTermStrategies',
): LongTermStrategies {
  if (!Array.isArray(registered)) {
    throw new MemValidationError(
      field,
      `[mem/core] ${field} must be an array of long-term strategies ({ id, plan, fields? }).`,
    );
  }
  const out = new Map<string, AnyLongTermStrategy>(BUILT_IN.map((s) => [s.id, s]));
  registered.forEach((strategy: unknown, i) => {
    const at = `${field}[${i}]`;
    if (typeof strategy !== 'object' || strategy === null) {
      throw new MemValidationError(at, `[mem/core] ${at} must be an object { id, plan, fields? }.`);
    }
    const { id, plan, fields } = strategy as Record<string, unknown>;
    if (typeof id !== 'string' || !ID.test(id)) {
      throw new MemValidationError(
        `${at}.id`,
        `[mem/core] ${at}.id must be a snake_case id (a-z, 0-9, _; at most 64 characters), got ${JSON.stringify(id)}.`,
      );
    }
    if (out.has(id)) {
      const what = BUILT_IN.some((s) => s.id === id) ? 'a built-in strategy' : 'registered twice';
      throw new MemValidationError(
        `${at}.id`,
        `[mem/core] ${at}.id "${id}" is ${what}; give your strategy its own id.`,
      );
    }
    if (typeof plan !== 'function') {
      throw new MemValidationError(
        `${at}.plan`,
        `[mem/core] ${at}.plan must be a function (log, config) => plan | undefined (or a Promise of one).`,
      );
    }
    if (fields !== undefined) {
      if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) {
        throw new MemValidationError(
          `${at}.fields`,
          `[mem/core] ${at}.fields must be a zod object shape ({ name: z.string(), ... }).`,
        );
      }
      for (const [key, schema] of Object.entries(fields)) {
        if (SHARED.has(key as keyof LongTermTriggerConfig)) {
          throw new MemValidationError(
            `${at}.fields.${key}`,
            `[mem/core] ${at}.fields may not redefine "${key}"; the registry sets it from id.`,
          );
        }
        if (!isZodSchema(schema)) {
          const got = schema === null ? 'null' : typeof schema;
          throw new MemValidationError(
            `${at}.fields.${key}`,
            `[mem/core] ${at}.fields.${key} must be a zod schema (e.g. z.number()), got a ${got}.`,
          );
        }
      }
    }
    out.set(id, strategy as AnyLongTermStrategy);
  });
  return out;
}

/** A zod schema, of any zod 4 copy: it has `safeParse`. */
function isZodSchema(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { safeParse?: unknown }).safeParse === 'function'
  );
}

/** The registered strategies only, without the built-in ones. */
export const registeredOnly = (strategies: LongTermStrategies): AnyLongTermStrategy[] =>
  [...strategies.values()].filter((s) => !BUILT_IN.includes(s));
