import type { MemoryEngineEvents } from '../../engine/engine-events.ts';
import type { MemoryEngine } from '../../engine/memory-engine.ts';
import type { TypedEmitter } from '../../events/typed-emitter.ts';
import { planCompression } from './compression-plan.ts';
import { KeyedQueue } from './keyed-queue.ts';
import type { CompressionResult } from './memory-entry.ts';
import type { MemoryConfig } from './memory-manager-config.ts';
import type { MemoryManagerEvents } from './memory-manager-events.ts';
import { summaryOf } from './session-export.ts';

/**
 * Runs the Memory Manager's compressions through the engine, one at a time per session: manual
 * ones, automatic ones in the background (queued at most once per session), and whatever must
 * not overlap them (clearing, importing).
 */
export class SessionCompressor {
  private readonly queue = new KeyedQueue();
  private readonly autoQueued = new Set<string>();
  private readonly compacted = new Map<string, MemoryEngineEvents['compacted']>();

  constructor(
    private readonly engine: MemoryEngine,
    private readonly config: () => MemoryConfig,
    private readonly events: TypedEmitter<MemoryManagerEvents>,
  ) {
    engine.on('compacted', (e) => this.compacted.set(e.sessionId, e));
  }

  /** Compresses now if enough is eligible; a failure emits `compress:failed` and rejects. */
  compress(sessionId: string): Promise<CompressionResult | null> {
    return this.queue
      .run(sessionId, () => this.compressNow(sessionId))
      .catch((error: unknown) => {
        this.events.emit('compress:failed', sessionId, error);
        throw error;
      });
  }

  /** Queues a background check-and-compress when `autoCompress` is on; never waits for it. */
  afterAdd(sessionId: string): void {
    if (!this.config().autoCompress || this.autoQueued.has(sessionId)) return;
    this.autoQueued.add(sessionId);
    this.queue
      .run(sessionId, async () => {
        this.autoQueued.delete(sessionId);
        const { autoCompress, maxTokens, maxEntries } = this.config();
        const info = await this.engine.store.info(sessionId);
        if (!autoCompress || info === null) return;
        if (info.tokenCount > maxTokens || info.messageCount > maxEntries) {
          await this.compressNow(sessionId);
        }
      })
      .catch((error: unknown) => this.events.emit('compress:failed', sessionId, error));
  }

  /** Runs `task` once the session's compressions are done, and before any queued later. */
  exclusive<T>(sessionId: string, task: () => Promise<T>): Promise<T> {
    return this.queue.run(sessionId, task);
  }

  idle(sessionId?: string): Promise<void> {
    return this.queue.idle(sessionId);
  }

  private async compressNow(sessionId: string): Promise<CompressionResult | null> {
    const session = this.engine.session(sessionId);
    const plan = planCompression(await session.messages(), this.config());
    if (plan === undefined) return null;
    this.compacted.delete(sessionId);
    const done = await session.summarizeNow({
      keepInteractions: plan.keepInteractions,
      targetTokens: plan.targetTokens,
    });
    const compaction = this.compacted.get(sessionId);
    this.compacted.delete(sessionId);
    if (!done || compaction === undefined) return null;
    const { record, source, durationMs } = compaction;
    const result: CompressionResult = {
      summary: summaryOf(record, await session.messages()),
      tokensSaved: record.originalTokenCount - record.tokenCount,
      entriesCompressed: record.originalMessageIds.length,
      source,
      durationMs,
    };
    this.events.emit('compressed', sessionId, result);
    return result;
  }
}
