import { execFileSync } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import {
  assertRedisInstalled,
  cli,
  freePort,
  killRedis,
  makeDir,
  type RedisProcess,
  removeDir,
  sleep,
  startRedis,
} from './redis-process.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Port of the standalone redis-server started for this run. */
    redisPort: number;
    /** Ports of the three masters of the Redis Cluster started for this run. */
    clusterPorts: number[];
  }
}

/**
 * vitest globalSetup: a standalone redis-server and a 3-master Redis Cluster on free loopback
 * ports, each with its own temp dir, stopped and removed in teardown.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  assertRedisInstalled();
  const started: RedisProcess[] = [];
  const teardown = async () => {
    await Promise.all(started.map((redis) => killRedis(redis)));
    for (const redis of started) removeDir(redis.dir);
  };
  try {
    const standalone = await startRedis(await freePort(), makeDir('standalone'));
    started.push(standalone);
    const ports: number[] = [];
    for (let i = 0; i < 3; i++) {
      const port = await freePort();
      const dir = makeDir(`cluster-${i}`);
      started.push(
        await startRedis(port, dir, [
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          `nodes-${port}.conf`,
          '--cluster-node-timeout',
          '5000',
          '--appendfsync',
          'everysec',
        ]),
      );
      ports.push(port);
    }
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
    await waitForCluster(ports);
    project.provide('redisPort', standalone.port);
    project.provide('clusterPorts', ports);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}

async function waitForCluster(ports: readonly number[]): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const ok = ports.every((port) => cli(port, ['CLUSTER', 'INFO']).includes('cluster_state:ok'));
    if (ok) return;
    await sleep(100);
  }
  throw new Error('[mem/redis tests] the Redis Cluster did not reach cluster_state:ok');
}
