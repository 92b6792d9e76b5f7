import { createInMemoryKnowledgeBase } from '../../knowledge/in-memory-knowledge-base.ts';
import type { KnowledgeBase } from '../../knowledge/knowledge-base-spec.ts';

/** A real in-memory knowledge base that records the `topK` of every search, in order. */
export function recordingKnowledgeBase(): { kb: KnowledgeBase; depths: number[] } {
  const inner = createInMemoryKnowledgeBase();
  const depths: number[] = [];
  const kb: KnowledgeBase = {
    ...inner,
    add: (c, chunks) => inner.add(c, chunks),
    delete: (c, f) => inner.delete(c, f),
    count: (c, f) => inner.count(c, f),
    close: () => inner.close(),
    search: (c, q, o) => {
      depths.push(o.topK);
      return inner.search(c, q, o);
    },
  };
  return { kb, depths };
}
