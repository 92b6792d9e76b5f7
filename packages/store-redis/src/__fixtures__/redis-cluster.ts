import { execFileSync } from 'node:child_process';
import {
  cli,
  freePort,
  killRedis,
  makeDir,
  type RedisProcess,
  removeDir,
  sleep,
  startRedis,
} from './redis-process.ts';

/** How a node of a test cluster is configured; the same settings are used when it restarts. */
export interface ClusterNodeSettings {
  /** `cluster-node-timeout`, ms. */
  nodeTimeoutMs: number;
  /** More redis-server arguments (for example `--appendfsync everysec`). */
  extra?: readonly string[];
}

/** The redis-server arguments of a cluster node on `port` (its nodes.conf lives in its dir). */
export function clusterNodeArgs(port: number, settings: ClusterNodeSettings): string[] {
  return [
    '--cluster-enabled',
    'yes',
    '--cluster-config-file',
    `nodes-${port}.conf`,
    '--cluster-node-timeout',
    String(settings.nodeTimeoutMs),
    ...(settings.extra ?? []),
  ];
}

/**
 * Starts `masters` cluster-enabled redis-servers on free loopback ports (each with its own temp
 * dir, AOF on), joins them into a cluster without replicas and waits for `cluster_state:ok`.
 * Every server started is stopped again if a later step fails.
 */
export async function startCluster(
  label: string,
  settings: ClusterNodeSettings,
  masters = 3,
): Promise<RedisProcess[]> {
  const started: RedisProcess[] = [];
  try {
    for (let i = 0; i < masters; i++) {
      const port = await freePort();
      const dir = makeDir(`${label}-${i}`);
      started.push(await startRedis(port, dir, clusterNodeArgs(port, settings)));
    }
    const ports = started.map((node) => node.port);
    execFileSync(
      'redis-cli',
      [
        '--cluster',
        'create',
        ...ports.map((port) => `127.0.0.1:${port}`),
        '--cluster-replicas',
        '0',
        '--cluster-yes',
      ],
      { stdio: 'ignore', timeout: 30_000 },
    );
    await waitForClusterState(ports, 'ok');
    return started;
  } catch (error) {
    await stopCluster(started);
    throw error;
  }
}

/** SIGKILLs every node and removes its dir. */
export async function stopCluster(nodes: readonly RedisProcess[]): Promise<void> {
  await Promise.all(nodes.map((node) => killRedis(node)));
  for (const node of nodes) removeDir(node.dir);
}

/** Waits until every node in `ports` reports `cluster_state:<state>` (at most `timeoutMs`). */
export async function waitForClusterState(
  ports: readonly number[],
  state: 'ok' | 'fail',
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const info = ports.map((port) => cli(port, ['CLUSTER', 'INFO']));
    if (info.every((text) => text.includes(`cluster_state:${state}`))) return;
    await sleep(100);
  }
  throw new Error(`[mem/redis tests] the Redis Cluster did not reach cluster_state:${state}`);
}
