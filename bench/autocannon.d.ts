/** The part of autocannon's programmatic API the load generator uses (the package ships no types). */
declare module 'autocannon' {
  interface Options {
    url: string;
    connections: number;
    duration: number;
    headers?: Record<string, string>;
  }

  interface Result {
    /** Seconds the run lasted. */
    duration: number;
    errors: number;
    timeouts: number;
    /** Milliseconds, recorded at 1 ms resolution. */
    latency: { p50: number; p99: number; average: number; max: number };
    statusCodeStats: Record<string, { count: number }>;
  }

  function autocannon(options: Options): Promise<Result>;
  export = autocannon;
}
