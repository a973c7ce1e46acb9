/**
 * Load generator, run as its own process so autocannon never shares an event loop (or a core's
 * time slice) with the server under test or the bench controller. Argument: a JSON LoadSpec.
 * Runs a warm-up, then the measured run, and prints one JSON line: LoadRun.
 */
import autocannon from 'autocannon';

export interface LoadSpec {
  url: string;
  connections: number;
  headers?: Record<string, string>;
  /** The status a correct answer has (302 for a share link: redirects are not followed). */
  expectStatus: number;
  warmUpSeconds: number;
  seconds: number;
}

export interface LoadRun {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  expected: number;
  unexpected: number;
  /** Every request answered, warm-up included: what the server's CPU time over the whole run is divided by. */
  answeredWithWarmUp: number;
  errors: number;
  statusCodes: Record<string, number>;
}

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2]) as LoadSpec;
  const options = { url: spec.url, connections: spec.connections, headers: spec.headers };
  const warmUp = await autocannon({ ...options, duration: spec.warmUpSeconds });
  const result = await autocannon({ ...options, duration: spec.seconds });
  const statusCodes = countsByStatus(result);
  const answered = sum(Object.values(statusCodes));
  const expected = statusCodes[String(spec.expectStatus)] ?? 0;
  const run: LoadRun = {
    requestsPerSecond: expected / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    expected,
    unexpected: answered - expected,
    answeredWithWarmUp: answered + sum(Object.values(countsByStatus(warmUp))),
    errors: result.errors + result.timeouts,
    statusCodes,
  };
  process.stdout.write(`${JSON.stringify(run)}\n`);
}

function countsByStatus(result: Awaited<ReturnType<typeof autocannon>>): Record<string, number> {
  return Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]));
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
