import cluster, { Worker } from 'node:cluster';
import path from 'node:path';
import type { Logger } from '../logger';
import { aggregateClusterMetrics } from '../metrics/cluster-metrics';

const WEB_ENTRY = path.resolve(__dirname, '..', '..', 'bin', 'web.js');
const RESTART_DELAY_MS = 1_000;

export interface GatewayCluster {
  /** Asks every gateway process to shut down gracefully and waits for all of them to exit. */
  stop(): Promise<void>;
}

/**
 * Runs `count` gateway processes (bin/web.js) sharing one listening port through node:cluster, so the
 * gateway uses more than one core. Caches stay coherent across them through the invalidation bus,
 * and GET /metrics on any of them answers for all of them (cluster-metrics.ts). A process that dies
 * unexpectedly is replaced.
 */
export async function startGatewayCluster(count: number, env: Record<string, string>, logger: Logger): Promise<GatewayCluster> {
  cluster.setupPrimary({ exec: WEB_ENTRY });
  aggregateClusterMetrics();
  const workers = new Set<Worker>();
  let stopping = false;

  const fork = (): Worker => {
    const worker = cluster.fork(env);
    workers.add(worker);
    worker.once('exit', (code, signal) => {
      workers.delete(worker);
      if (stopping) return;
      logger.error({ code, signal, pid: worker.process.pid }, 'gateway process exited; starting another');
      setTimeout(() => {
        if (!stopping) fork();
      }, RESTART_DELAY_MS).unref();
    });
    return worker;
  };

  const first = Array.from({ length: count }, fork);
  try {
    await Promise.all(first.map((worker) => new Promise<void>((resolve, reject) => {
      worker.once('listening', () => resolve());
      worker.once('exit', () => reject(new Error('a gateway process exited during start-up')));
    })));
  } catch (error) {
    stopping = true;
    for (const worker of workers) worker.process.kill('SIGKILL');
    throw error;
  }

  return {
    stop: async () => {
      stopping = true;
      await Promise.all([...workers].map((worker) => new Promise<void>((resolve) => {
        if (worker.isDead()) {
          resolve();
          return;
        }
        worker.once('exit', () => resolve());
        worker.process.kill('SIGTERM');
      })));
    },
  };
}
