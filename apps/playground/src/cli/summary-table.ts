import type { ReplayResult } from '../replay/replay-types.ts';

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) =>
  n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${n.toFixed(n < 10 ? 2 : 1)} ms`;

/**
 * The stats of a replay as a two-column table. Tokens "stored" are the history that existed at
 * each turn, summed over turns; "sent" is what the LLM received, summed the same way.
 */
export function summaryTable(result: ReplayResult, location: string | undefined): string {
  const s = result.stats;
  const rows: [string, string][] = [
    ['conversation', result.conversationTitle],
    ['store', location === undefined ? result.store : `${result.store} (${location})`],
    ['turns', int(s.turns)],
    ['messages', int(s.messages)],
    ['tokens stored', int(s.tokensStored)],
    ['tokens sent', `${int(s.tokensSent)} (${(s.sentShare * 100).toFixed(1)}% of stored)`],
    ['compactions', int(s.compactions)],
    ['erasures', int(s.erasures)],
    [
      'compression ratio',
      s.compressionRatio === null
        ? '-'
        : `${s.compressionRatio.toFixed(3)} (summary/original, ${(1 / s.compressionRatio).toFixed(1)}x)`,
    ],
    ['time per turn', ms(s.msPerTurn)],
    ['total time', ms(s.totalMs)],
  ];
  const left = Math.max(...rows.map(([k]) => k.length));
  const right = Math.max(...rows.map(([, v]) => v.length));
  const line = `+${'-'.repeat(left + 2)}+${'-'.repeat(right + 2)}+`;
  const body = rows.map(([k, v]) => `| ${k.padEnd(left)} | ${v.padEnd(right)} |`);
  return [line, ...body, line].join('\n');
}
