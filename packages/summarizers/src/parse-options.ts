import { type ConfigIssue, MemConfigError } from '@mem/core';
import type { z } from 'zod';

/** Parses user options with `schema`; a `MemConfigError` lists every bad path at once. */
export function parseOptions<S extends z.ZodType>(
  schema: S,
  value: unknown,
  source: string,
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues: ConfigIssue[] = result.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
  throw new MemConfigError(issues, { source: `@mem/summarizers ${source}` });
}
