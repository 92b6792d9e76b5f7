import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { AIMessage, BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';

/**
 * A LangChain chat model (a real `BaseChatModel`) that answers with the given AI messages in
 * order, tool calls included, and records what it was sent. `@langchain/core`'s fake models
 * cannot return a tool call on one call and an answer on the next.
 */
export class ScriptedChatModel extends BaseChatModel {
  /** The messages of every call, in order. */
  readonly inputs: BaseMessage[][] = [];
  private readonly replies: AIMessage[];

  constructor(replies: AIMessage[]) {
    super({});
    this.replies = [...replies];
  }

  _llmType(): string {
    return 'scripted';
  }

  override bindTools(): this {
    return this;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.inputs.push(messages);
    const reply = this.replies.shift();
    if (reply === undefined) throw new Error('ScriptedChatModel: no reply left');
    return { generations: [{ text: reply.text, message: reply }] };
  }
}
