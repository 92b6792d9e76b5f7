import type { KnowledgeHit, MemoryContext } from '@mem/core';
import type { AskAnswer, AskContextItem, AskHitView, PresentMessage } from './replay-types.ts';
import { hitView, type TurnRecorder } from './turn-recorder.ts';

/**
 * Describes the context the engine built for a question (`session.context({ next })`) against
 * the recorded history: every message with its tokens, the knowledge hits with the history
 * messages they quote, and which history messages the context brings back. A message sent as it
 * is counts as `window` (pinned system prompts too); one quoted by a retrieved chunk and not sent
 * as it is, as `retrieved`. Erased messages and ids the history does not know are left out.
 */
export function askAnswer(
  question: { id: string; text: string },
  context: MemoryContext,
  recorder: TurnRecorder,
  sessionId: string,
): AskAnswer {
  const items: AskContextItem[] = recorder
    .contextItems(context.messages)
    .map((item) => (item.id === question.id ? { ...item, kind: 'question' } : item));
  const sent = new Set(context.messages.map((m) => m.id));
  const quoted = new Set(context.knowledge.flatMap((h) => h.chunk.metadata.messageIds));
  const present: PresentMessage[] = [];
  for (const id of recorder.survivingIds()) {
    if (sent.has(id)) present.push({ id, how: 'window' });
    else if (quoted.has(id)) present.push({ id, how: 'retrieved' });
  }
  return {
    question: question.text,
    turns: recorder.turns.length,
    context: items,
    tokenCount: context.tokenCount,
    truncated: context.truncated,
    knowledgeHits: context.knowledge.map((hit) => askHitView(hit, sessionId)),
    present,
  };
}

function askHitView(hit: KnowledgeHit, sessionId: string): AskHitView {
  return {
    ...hitView(hit, sessionId),
    tokens: hit.chunk.tokenCount,
    messageIds: [...hit.chunk.metadata.messageIds],
  };
}
