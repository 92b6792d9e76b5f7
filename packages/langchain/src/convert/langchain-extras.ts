import type { LangChainContent } from './content-blocks.ts';

/** Metadata key under which a mem message keeps what LangChain has and mem has no field for. */
export const LANGCHAIN_METADATA_KEY = 'langchain';

/**
 * The LangChain fields kept beside a mem message (`metadata.langchain`), each only when needed to
 * convert back exactly: `id` (mem gives every message its own id; LangChain ids may repeat),
 * `content` and `tool_calls` when mem's typed form does not convert back to the same value, and
 * the fields mem has no place for.
 */
export interface LangChainExtras {
  /** The LangChain message id; absent when the message had none. */
  id?: string;
  content?: LangChainContent;
  additional_kwargs?: Record<string, unknown>;
  response_metadata?: Record<string, unknown>;
  tool_calls?: unknown[];
  invalid_tool_calls?: unknown[];
  usage_metadata?: Record<string, unknown>;
  /** ToolMessage only. */
  artifact?: unknown;
  /** ToolMessage only. */
  metadata?: Record<string, unknown>;
}

/** Reads `metadata.langchain` of a mem message (undefined: the message did not come from LangChain). */
export function langChainExtras(
  metadata: Record<string, unknown> | undefined,
): LangChainExtras | undefined {
  const value = metadata?.[LANGCHAIN_METADATA_KEY];
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as LangChainExtras)
    : undefined;
}

/** True when `JSON.stringify` keeps `value` as it is (what a store can hold exactly). */
export function isJsonValue(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object': {
      if (value === null) return true;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++)
          if (!(i in value) || !isJsonValue(value[i])) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return false;
      return Object.values(value).every((v) => v === undefined || isJsonValue(v));
    }
    default:
      return false;
  }
}
