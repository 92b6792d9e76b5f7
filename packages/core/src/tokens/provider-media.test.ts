import type { ModelMessage } from 'ai-v7';
import { describe, expect, it } from 'vitest';
import { fromModelMessages } from '../model/convert/ai-sdk.ts';
import type { ContentPart, Message } from '../model/message.ts';
import { createTokenCounter } from './token-counter.ts';

const counter = createTokenCounter();
const user = (content: ContentPart[]): Message => ({
  id: 'u',
  role: 'user',
  content,
  createdAt: 0,
});
/** Tokens of the parts alone: the message minus an empty one. */
const partTokens = (parts: ContentPart[]) =>
  counter.countMessage(user(parts)) - counter.countMessage(user([]));
/** The mem parts `fromModelMessages` makes of one AI SDK v7 user message. */
const read = (content: Extract<ModelMessage, { role: 'user' }>['content']): ContentPart[] => {
  const [message] = fromModelMessages([{ role: 'user', content }]);
  return typeof message?.content === 'string' ? [] : (message?.content ?? []);
};

describe('token counting of AI SDK v7 media', () => {
  it('charges tagged file data as the file it stands for, not as its JSON', () => {
    const bytes = read([
      { type: 'file', mediaType: 'application/pdf', data: { type: 'data', data: 'JVBERi0=' } },
    ]);
    const reference = read([
      {
        type: 'file',
        mediaType: 'application/pdf',
        data: { type: 'reference', reference: { openai: 'file-9' } },
      },
    ]);
    const url = read([
      { type: 'file', mediaType: 'image', data: { type: 'url', url: new URL('https://x.test/a') } },
    ]);
    expect(bytes[0]?.type).toBe('file');
    expect(reference[0]?.type).toBe('provider');
    expect(partTokens(bytes)).toBe(1000);
    expect(partTokens(reference)).toBe(1000);
    expect(partTokens(url)).toBe(1000);
  });

  it('charges provider-referenced images as images, inline text files as their text', () => {
    expect(partTokens(read([{ type: 'image', image: { openai: 'file-img' } }]))).toBe(765);
    const text = 'Terms: net 30 days from the invoice date.';
    const inline = read([{ type: 'file', mediaType: 'text/plain', data: { type: 'text', text } }]);
    expect(inline[0]?.type).toBe('provider');
    expect(partTokens(inline)).toBe(counter.countText(text));
  });

  it('charges reasoning files and file references in tool outputs through mediaTokens', () => {
    const seen: string[] = [];
    const custom = createTokenCounter({
      mediaTokens: (part) => {
        seen.push(part.type === 'file' ? part.mediaType : part.type);
        return 7;
      },
    });
    const parts: ContentPart[] = [
      {
        type: 'provider',
        format: 'ai-sdk',
        value: {
          type: 'reasoning-file',
          mediaType: 'image/png',
          data: { type: 'data', data: 'iVBORw==' },
        },
      },
      {
        type: 'provider',
        format: 'ai-sdk',
        value: { type: 'file-reference', providerReference: { openai: 'file-10' } },
      },
      {
        type: 'provider',
        format: 'ai-sdk',
        value: { type: 'image-file-reference', providerReference: { anthropic: 'file_11' } },
      },
    ];
    const message = user(parts);
    expect(custom.countMessage(message) - custom.countMessage(user([]))).toBe(21);
    expect(seen).toStrictEqual(['image/png', '', 'image']);
  });

  it('still counts other verbatim parts as their JSON', () => {
    const value = { type: 'custom', kind: 'openai.compaction' };
    const parts: ContentPart[] = [{ type: 'provider', format: 'ai-sdk', value }];
    expect(partTokens(parts)).toBe(counter.countText(JSON.stringify(value)));
  });
});
