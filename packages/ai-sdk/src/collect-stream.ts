import type { ResultContentLike, UsageLike } from './middleware-types.ts';

export interface StreamOutcome {
  content: ResultContentLike[];
  usage: UsageLike | undefined;
}

type StreamPart = { type: string; [key: string]: unknown };

function isPart(value: unknown): value is StreamPart {
  return (
    typeof value === 'object' && value !== null && typeof (value as StreamPart).type === 'string'
  );
}

export interface StreamCollector {
  /** Takes the next stream part (anything: parts it does not know are ignored). */
  add(part: unknown): void;
  /**
   * The answer to store: only once a `finish` part has come and no `error` part did (a stream
   * that reported an error stores nothing of its answer, even when it finishes after it).
   */
  outcome(): StreamOutcome | undefined;
}

/**
 * Rebuilds a model's response content from its stream parts (text and reasoning by block id,
 * tool calls, tool results, files) and its usage from the `finish` part.
 */
export function createStreamCollector(): StreamCollector {
  const content: ResultContentLike[] = [];
  const blocks = new Map<string, ResultContentLike>();
  let usage: UsageLike | undefined;
  let finished = false;
  let errored = false;

  const block = (kind: 'text' | 'reasoning', id: string): ResultContentLike => {
    const key = `${kind}:${id}`;
    let entry = blocks.get(key);
    if (entry === undefined) {
      entry = { type: kind, text: '' };
      blocks.set(key, entry);
      content.push(entry);
    }
    return entry;
  };

  return {
    add(part) {
      if (!isPart(part)) return;
      const id = typeof part.id === 'string' ? part.id : '';
      switch (part.type) {
        case 'text-start':
        case 'reasoning-start':
        case 'text-end':
        case 'reasoning-end': {
          const entry = block(part.type.startsWith('text') ? 'text' : 'reasoning', id);
          if (part.providerMetadata !== undefined) entry.providerMetadata = part.providerMetadata;
          break;
        }
        case 'text-delta':
        case 'reasoning-delta': {
          const entry = block(part.type === 'text-delta' ? 'text' : 'reasoning', id);
          if (typeof part.delta === 'string') entry.text = `${entry.text as string}${part.delta}`;
          break;
        }
        case 'tool-call':
        case 'tool-result':
        case 'file':
          content.push(part);
          break;
        case 'error':
          errored = true;
          break;
        case 'finish':
          finished = true;
          usage = part.usage as UsageLike | undefined;
          break;
        default:
          break;
      }
    },
    outcome: () => (finished && !errored ? { content, usage } : undefined),
  };
}
