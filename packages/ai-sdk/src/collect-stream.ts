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

/**
 * A pass-through over a model's stream parts that rebuilds the response content (text and
 * reasoning by block id, tool calls, tool results, files) and calls `onFinish` once the stream
 * has ended with a `finish` part. A stream that errors or is cancelled calls nothing. Parts are
 * forwarded unchanged and without delay; `onFinish` runs before the stream closes, so an error it
 * throws reaches the reader.
 */
export function collectStream(
  onFinish: (outcome: StreamOutcome) => Promise<void>,
): TransformStream<unknown, unknown> {
  const content: ResultContentLike[] = [];
  const blocks = new Map<string, ResultContentLike>();
  let usage: UsageLike | undefined;
  let finished = false;

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

  return new TransformStream({
    transform(part, controller) {
      controller.enqueue(part);
      if (!isPart(part)) return;
      const id = typeof part.id === 'string' ? part.id : '';
      switch (part.type) {
        case 'text-start':
        case 'reasoning-start': {
          const entry = block(part.type === 'text-start' ? 'text' : 'reasoning', id);
          if (part.providerMetadata !== undefined) entry.providerMetadata = part.providerMetadata;
          break;
        }
        case 'text-delta':
        case 'reasoning-delta': {
          const entry = block(part.type === 'text-delta' ? 'text' : 'reasoning', id);
          if (typeof part.delta === 'string') entry.text = `${entry.text as string}${part.delta}`;
          break;
        }
        case 'text-end':
        case 'reasoning-end': {
          const entry = block(part.type === 'text-end' ? 'text' : 'reasoning', id);
          if (part.providerMetadata !== undefined) entry.providerMetadata = part.providerMetadata;
          break;
        }
        case 'tool-call':
        case 'tool-result':
        case 'file':
          content.push(part);
          break;
        case 'finish':
          finished = true;
          usage = part.usage as UsageLike | undefined;
          break;
        default:
          break;
      }
    },
    async flush() {
      if (finished) await onFinish({ content, usage });
    },
  });
}
