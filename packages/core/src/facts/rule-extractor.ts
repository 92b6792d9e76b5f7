import { messageText } from '../model/message.ts';
import type { FactExtractor, FactOperation } from './fact-extractor.ts';

export interface RuleFactExtractorOptions {
  /** Characters read from the start of each user message (default 4,000). */
  maxCharsPerMessage?: number;
}

/**
 * The deterministic fact extractor (`rules`): explicit self-statements in the user's messages of
 * one finished interaction, no model.
 */
export function createRuleFactExtractor(options: RuleFactExtractorOptions = {}): FactExtractor {
  const maxChars = options.maxCharsPerMessage ?? 4_000;
  return {
    specificationVersion: 'mem.fact-extractor.v1',
    id: 'rules',
    extract(input) {
      const ops: FactOperation[] = [];
      for (const message of input.messages) {
        if (message.role !== 'user') continue;
        const text = messageText(message).slice(0, maxChars);
        const name = /\bmy name is ([A-Z][\p{L}'-]{0,40})/u.exec(text)?.[1];
        if (name !== undefined) {
          ops.push({
            op: 'add',
            text: `Name is ${name}.`,
            about: 'name',
            sourceMessageIds: [message.id],
          });
        }
      }
      return Promise.resolve(ops);
    },
  };
}
