import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type AIMessageFields, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';

/**
 * A LangChain chat model (a real `BaseChatModel`) that answers from what it is sent, so
 * overlapping runs can be told apart: a question "weather in <city>?" gets a `get_weather` tool
 * call, a tool result gets "Tool said: ...", anything else "Answer to: <newest human text>".
 * "Please fail." makes the call throw. It records every call's messages and reports usage: 1,000 input tokens per message sent.
 */
export class AnsweringChatModel extends BaseChatModel {
  /** The messages of every call, in order. */
  readonly inputs: BaseMessage[][] = [];
  private calls = 0;

  constructor(private readonly delayMs = 0) {
    super({});
  }

  _llmType(): string {
    return 'answering';
  }

  override bindTools(): this {
    return this;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.inputs.push(messages);
    const n = ++this.calls;
    if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs * (1 + (n % 3))));
    const last = messages.at(-1);
    if (last?.text === 'Please fail.') throw new Error('503 from the provider');
    const human = messages.findLast((m) => m.type === 'human')?.text ?? '';
    const city = /^weather in (.+)\?$/i.exec(human)?.[1];
    const usage_metadata = {
      input_tokens: 1000 * messages.length,
      output_tokens: 1,
      total_tokens: 1 + 1000 * messages.length,
    };
    // usage_metadata's declared type does not take a literal under exactOptionalPropertyTypes.
    const ai = (fields: Record<string, unknown>) =>
      new AIMessage({ ...fields, usage_metadata } as unknown as AIMessageFields);
    let reply: AIMessage;
    if (last?.type === 'tool') reply = ai({ content: `Tool said: ${last.text}` });
    else if (city !== undefined && last?.type === 'human')
      reply = ai({
        content: '',
        tool_calls: [{ type: 'tool_call', id: `call_${n}`, name: 'get_weather', args: { city } }],
      });
    else reply = ai({ content: `Answer to: ${human}` });
    return { generations: [{ text: reply.text, message: reply }] };
  }
}
