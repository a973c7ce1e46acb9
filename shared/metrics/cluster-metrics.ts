import cluster from 'node:cluster';
import { AggregatorRegistry, Registry } from 'prom-client';

/** Messages between a gateway process and its cluster's primary. */
const ASK = 'bds:cluster-metrics?';
const ANSWER = 'bds:cluster-metrics';
/** Longer than prom-client's own 5 s for collecting every process's metrics. */
const ANSWER_TIMEOUT_MS = 10_000;

interface Answer {
  type: typeof ANSWER;
  id: number;
  body?: string;
  error?: string;
}

/**
 * In the primary of a gateway cluster (WEB_CONCURRENCY > 1): answers a gateway process asking for
 * the metrics of every gateway process, summed by prom-client's AggregatorRegistry. A scrape reaches
 * whichever process takes its connection, and must see the whole cluster's counts, not that one's.
 */
export function aggregateClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: { type?: unknown; id?: unknown }) => {
    if (message?.type !== ASK || typeof message.id !== 'number') return;
    const id = message.id;
    const reply = (answer: Omit<Answer, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: ANSWER, id, ...answer });
    };
    aggregator.clusterMetrics().then((body) => reply({ body }), (error: Error) => reply({ error: error.message }));
  });
}

/**
 * In a gateway process of a cluster: lets the primary read `registry`, and returns what reads the
 * exposition of the whole cluster from the primary.
 */
export function joinClusterMetrics(registry: Registry): () => Promise<string> {
  // Constructed for its side effect: the listener answering the primary's requests for this process's metrics.
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([registry]);
  const waiting = new Map<number, (answer: Answer) => void>();
  let nextId = 0;
  process.on('message', (message: Partial<Answer>) => {
    if (message?.type === ANSWER && typeof message.id === 'number') waiting.get(message.id)?.(message as Answer);
  });
  return () => new Promise<string>((resolve, reject) => {
    const id = (nextId += 1);
    const timer = setTimeout(() => settle({ type: ANSWER, id, error: 'the cluster did not answer in time' }), ANSWER_TIMEOUT_MS);
    const settle = (answer: Answer) => {
      clearTimeout(timer);
      waiting.delete(id);
      if (answer.body !== undefined) resolve(answer.body);
      else reject(new Error(`cluster metrics: ${answer.error}`));
    };
    waiting.set(id, settle);
    process.send?.({ type: ASK, id });
  });
}
