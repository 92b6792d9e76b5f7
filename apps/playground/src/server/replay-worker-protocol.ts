/** Messages between the server (replay-runner.ts) and its replay worker (replay-worker.ts). */
import type { ErrorDetails } from './contract.ts';

export type WorkerOp =
  | 'replay'
  | 'turn'
  | 'ask'
  | 'beginTurn'
  | 'endTurn'
  | 'facts'
  | 'forget'
  | 'close';

export interface WorkerRequest {
  id: number;
  op: WorkerOp;
  args: unknown;
}

export type WorkerReply =
  | { id: number; ok: true; value: unknown }
  | {
      id: number;
      ok: false;
      error:
        | { kind: 'stopped'; message: string; done: number; total: number }
        | { kind: 'http'; message: string; status: number; extra: ErrorDetails }
        | { kind: 'error'; message: string; stack: string };
    };
