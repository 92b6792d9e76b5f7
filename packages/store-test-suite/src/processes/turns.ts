import type { CountedMessage, Message, SessionSnapshot } from '@mem/core/backend';

/*
 * The turns the multi-process and crash tests write, and the checks they make afterwards.
 * A turn is 4 messages appended in one call: user, assistant tool call, tool result, assistant.
 * Message ids are `<turnId>.<0-3>`; turn ids are `<writer>:<index>`.
 */
export function turnMessages(turnId: string, createdAt: number): CountedMessage[] {
  const callId = `call-${turnId}`;
  return [
    { id: `${turnId}.0`, role: 'user', content: `question ${turnId}`, createdAt, tokenCount: 4 },
    {
      id: `${turnId}.1`,
      role: 'assistant',
      content: 'looking it up',
      toolCalls: [{ id: callId, name: 'lookup', arguments: JSON.stringify({ q: turnId }) }],
      createdAt,
      tokenCount: 12,
    },
    {
      id: `${turnId}.2`,
      role: 'tool',
      content: `result for ${turnId}`,
      toolCallId: callId,
      toolName: 'lookup',
      createdAt,
      tokenCount: 6,
    },
    { id: `${turnId}.3`, role: 'assistant', content: `answer ${turnId}`, createdAt, tokenCount: 4 },
  ];
}

/**
 * Splits a history (summaries expanded, oldest first) into whole turns. Throws when a turn is
 * split, incomplete, out of order or present twice, or when a message is not part of a turn.
 * Returns the turn ids in history order.
 */
export function wholeTurns(history: readonly Message[]): string[] {
  const ids: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < history.length; i += 4) {
    const first = history[i]!.id;
    if (!first.endsWith('.0')) throw new Error(`message ${i} (${first}) does not start a turn`);
    const turnId = first.slice(0, -2);
    const expected = turnMessages(turnId, 0);
    for (let j = 0; j < 4; j++) {
      const m = history[i + j];
      if (m?.id !== expected[j]!.id || m.role !== expected[j]!.role) {
        throw new Error(
          `turn ${turnId} is split or incomplete at message ${i + j}: found ${m?.id} (${m?.role})`,
        );
      }
      if (m.content !== expected[j]!.content) throw new Error(`message ${m.id} changed content`);
    }
    if (seen.has(turnId)) throw new Error(`turn ${turnId} is present twice`);
    seen.add(turnId);
    ids.push(turnId);
  }
  return ids;
}

/** Turn indexes of one writer, in history order. */
export function writerIndexes(turnIds: readonly string[], writer: string): number[] {
  return turnIds.filter((id) => id.startsWith(`${writer}:`)).map((id) => Number(id.split(':')[1]));
}

/**
 * Checks that no compaction was half applied: every message (active or archived) is there once,
 * every archived message is claimed by exactly one summary record that names it, each active or
 * archived summary message has its record, and the counters agree with what is stored
 * (`epoch` = compactions, `version` = appends + compactions, the only writes made).
 */
export function checkSnapshotAccounts(snapshot: SessionSnapshot, appendedTurns: number): void {
  const all = [...snapshot.messages, ...snapshot.archived].map((m) => m.id);
  if (new Set(all).size !== all.length) throw new Error('a message is stored twice');
  const claimed = snapshot.summaries.flatMap((r) => r.originalMessageIds);
  if (new Set(claimed).size !== claimed.length) throw new Error('two summaries claim a message');
  const archived = new Set(snapshot.archived.map((m) => m.id));
  if (claimed.length !== archived.size || !claimed.every((id) => archived.has(id))) {
    throw new Error('the summary records and the archive disagree');
  }
  const summaryIds = new Set(snapshot.summaries.map((r) => r.id));
  const summaryMessages = all.filter((id) => id.startsWith('summary_'));
  if (
    summaryMessages.length !== summaryIds.size ||
    !summaryMessages.every((id) => summaryIds.has(id))
  ) {
    throw new Error('summary messages and summary records disagree');
  }
  const compactions = snapshot.summaries.length;
  if (snapshot.info.epoch !== compactions) {
    throw new Error(`epoch ${snapshot.info.epoch} but ${compactions} compactions are stored`);
  }
  if (snapshot.info.version !== appendedTurns + compactions) {
    throw new Error(
      `version ${snapshot.info.version} but ${appendedTurns} appends + ${compactions} compactions are stored`,
    );
  }
  if (snapshot.info.messageCount !== snapshot.messages.length) {
    throw new Error('messageCount disagrees with the active messages');
  }
}
