import type { TestProject } from 'vitest/node';
import { startCluster } from './redis-cluster.ts';
import {
  assertRedisInstalled,
  freePort,
  killRedis,
  makeDir,
  type RedisProcess,
  removeDir,
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
    const cluster = await startCluster('cluster', {
      nodeTimeoutMs: 5_000,
      extra: ['--appendfsync', 'everysec'],
    });
    started.push(...cluster);
    const ports = cluster.map((node) => node.port);
    project.provide('redisPort', standalone.port);
    project.provide('clusterPorts', ports);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
