import type { Message } from '@mem/core/summarize';
import type { ProviderRequest } from '../../__fixtures__/provider-server.ts';

/**
 * A deterministic stand-in for an LLM that follows our Chain of Density prompts, for the
 * provider server's default responder. It reads the prompt the way a model would — the
 * transcript, the pass number, the previous summary — and answers valid CoD JSON: pass 1 names
 * the first entity of the transcript, each later pass keeps the previous summary and adds the
 * next two entities it lacks. Even passes wrap the JSON in prose and a ```json fence.
 */
export interface FakeCall {
  pass: number;
  loops: number;
  system: string;
  prompt: string;
  previousSummary: string | undefined;
  /** The summary this call answered with. */
  summary: string;
}

const ENTITY_PATTERNS = [
  /→ (\w+)\(/g, // tool calls
  /← \w+ \[error\]: ([^\n]+)/g, // tool errors
  /\b[A-Z]{2,}-\d+\b/g, // ids
  /\b\d{4}-\d{2}-\d{2}\b/g, // dates
  /€\d+/g, // amounts
];

/** Entities of `transcript` in order of first appearance. */
export function transcriptEntities(transcript: string): string[] {
  const found: { at: number; entity: string }[] = [];
  for (const pattern of ENTITY_PATTERNS) {
    for (const m of transcript.matchAll(pattern)) {
      found.push({ at: m.index + (m[0].length - (m[1] ?? m[0]).length), entity: m[1] ?? m[0] });
    }
  }
  found.sort((a, b) => a.at - b.at);
  return [...new Set(found.map((f) => f.entity))];
}

const between = (text: string, tag: string) =>
  new RegExp(`<${tag}>\\n([\\s\\S]*?)\\n</${tag}>`).exec(text)?.[1];

export function fakeCodLlm() {
  const calls: FakeCall[] = [];
  const respond = (request: ProviderRequest): string => {
    const transcript = between(request.prompt, 'transcript') ?? '';
    const entities = transcriptEntities(transcript);
    const steps = /Repeat the following 2 steps (\d+) times/.exec(request.prompt);
    if (steps) {
      let summary = `A conversation about ${entities[0]}.`;
      const list = [{ missing_entities: [entities[0]], denser_summary: summary }];
      for (let i = 1; i < Number(steps[1]); i++) {
        const missing = entities.slice(2 * i - 1, 2 * i + 1);
        summary = `${summary.slice(0, -1)}; ${missing.join('; ')}.`;
        list.push({ missing_entities: missing, denser_summary: summary });
      }
      return JSON.stringify({ steps: list });
    }
    const [, pass = '0', loops = '0'] = /Pass (\d+) of (\d+)\./.exec(request.prompt) ?? [];
    const previousSummary = between(request.prompt, 'previous_summary');
    const call = { pass: Number(pass), loops: Number(loops), system: request.system };
    if (previousSummary === undefined) {
      const summary = `A conversation about ${entities[0]}.`;
      calls.push({ ...call, prompt: request.prompt, previousSummary, summary });
      return JSON.stringify({ entities: [entities[0]], summary });
    }
    const missing = entities.filter((e) => !previousSummary.includes(e)).slice(0, 2);
    const summary = `${previousSummary.slice(0, -1)}; ${missing.join('; ')}.`;
    calls.push({ ...call, prompt: request.prompt, previousSummary, summary });
    const json = JSON.stringify({ missing_entities: missing, denser_summary: summary });
    return call.pass % 2 === 0 ? `Here is pass ${pass}:\n\`\`\`json\n${json}\n\`\`\`\nDone.` : json;
  };
  return { calls, respond };
}

/** A support conversation with tool calls, a tool error, ids, dates and an amount. */
export function refundConversation(): Message[] {
  const at = Date.UTC(2026, 2, 6, 9);
  return [
    {
      id: 'm1',
      role: 'user',
      content: 'Priya here. Please refund order AF-1042, it arrived late on 2026-03-06.',
      createdAt: at,
    },
    {
      id: 'm2',
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c1', name: 'lookup_order', arguments: '{"id":"AF-1042"}' }],
      createdAt: at + 1,
    },
    {
      id: 'm3',
      role: 'tool',
      content: '{"id":"AF-1042","total":"€480"}',
      toolCallId: 'c1',
      toolName: 'lookup_order',
      createdAt: at + 2,
    },
    {
      id: 'm4',
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c2', name: 'refund_order', arguments: '{"id":"AF-1042"}' }],
      createdAt: at + 3,
    },
    {
      id: 'm5',
      role: 'tool',
      content: 'card expired',
      toolCallId: 'c2',
      toolName: 'refund_order',
      isError: true,
      createdAt: at + 4,
    },
    {
      id: 'm6',
      role: 'assistant',
      content: 'The refund failed. I will email Priya a payment link by 2026-03-07.',
      createdAt: at + 5,
    },
    { id: 'm7', role: 'user', content: 'Fine. I prefer email over phone.', createdAt: at + 6 },
  ];
}
