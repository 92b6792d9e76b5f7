import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';

/**
 * A LangChain chat model (a real `BaseChatModel`) that answers from what it is sent, so
 * overlapping runs can be told apart: a question "weather in <city>?" gets a `get_weather` tool
 * call, a tool result gets "Tool said: ...", anything else "Answer to: <newest human text>".
 * It records every call's messages and reports usage (input tokens = messages sent).
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
    const human = messages.findLast((m) => m.type === 'human')?.text ?? '';
    const city = /^weather in (.+)\?$/i.exec(human)?.[1];
    const usage_metadata = {
      input_tokens: messages.length,
      output_tokens: 1,
      total_tokens: 1 + messages.length,
    };
    let reply: AIMessage;
    if (last?.type === 'tool')
      reply = new AIMessage({ content: `Tool said: ${last.text}`, usage_metadata });
    else if (city !== undefined && last?.type === 'human')
      reply = new AIMessage({
        content: '',
        tool_calls: [{ type: 'tool_call', id: `call_${n}`, name: 'get_weather', args: { city } }],
        usage_metadata,
      });
    else reply = new AIMessage({ content: `Answer to: ${human}`, usage_metadata });
    return { generations: [{ text: reply.text, message: reply }] };
  }
}
