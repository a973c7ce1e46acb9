/**
 * Load generator, run as its own process so autocannon never shares an event loop (or a core's
 * time slice) with the server under test or the bench controller. Argument: a JSON array of LoadSpecs,
 * loaded side by side when there are several. Runs a warm-up, then the measured run, and prints one
 * JSON line: their LoadRuns.
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
  const specs = JSON.parse(process.argv[2]) as LoadSpec[];
  // Several specs are loaded side by side: their warm-ups together, then their measured runs together.
  const warmUps = await Promise.all(specs.map((spec) => autocannon({ ...optionsOf(spec), duration: spec.warmUpSeconds })));
  const results = await Promise.all(specs.map((spec) => autocannon({ ...optionsOf(spec), duration: spec.seconds })));
  const runs = specs.map((spec, i) => loadRunOf(spec, warmUps[i], results[i]));
  process.stdout.write(`${JSON.stringify(runs)}\n`);
}

type AutocannonResult = Awaited<ReturnType<typeof autocannon>>;

function optionsOf(spec: LoadSpec): { url: string; connections: number; headers?: Record<string, string> } {
  return { url: spec.url, connections: spec.connections, headers: spec.headers };
}

function loadRunOf(spec: LoadSpec, warmUp: AutocannonResult, result: AutocannonResult): LoadRun {
  const statusCodes = countsByStatus(result);
  const answered = sum(Object.values(statusCodes));
  const expected = statusCodes[String(spec.expectStatus)] ?? 0;
  return {
    requestsPerSecond: expected / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    expected,
    unexpected: answered - expected,
    answeredWithWarmUp: answered + sum(Object.values(countsByStatus(warmUp))),
    errors: result.errors + result.timeouts,
    statusCodes,
  };
}

function countsByStatus(result: AutocannonResult): Record<string, number> {
  return Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]));
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
