/** The requests of one route template, method and status: count, latency sum and histogram buckets. */
interface Series {
  labels: Readonly<Record<'route' | 'method' | 'status', string>>;
  count: number;
  sum: number;
  /** Observations per bucket (not cumulative), by index of their upper bound. */
  buckets: Float64Array;
}

/** A metric as prom-client's registry reads it (what its own metrics and AggregatorRegistry hand it). */
export interface ReadMetric {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: Array<{ metricName?: string; labels: Record<string, string | number>; value: number }> }>;
}

/**
 * HTTP requests counted and timed as plain numbers, one series per route template, method and
 * status, found through three map lookups: the request path pays no label hashing or validation, and
 * the exposition (http_requests_total, http_request_duration_seconds) is built only when scraped.
 */
export class RequestSeries {
  private readonly byRoute = new Map<string, Map<string, Map<number, Series>>>();

  constructor(private readonly bounds: readonly number[]) {}

  record(route: string, method: string, status: number, seconds: number): void {
    let byMethod = this.byRoute.get(route);
    if (!byMethod) this.byRoute.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (!series) byStatus.set(status, (series = { labels: { route, method, status: String(status) }, count: 0, sum: 0, buckets: new Float64Array(this.bounds.length) }));
    series.count += 1;
    series.sum += seconds;
    const { bounds } = this;
    for (let i = 0; i < bounds.length; i += 1) {
      if (seconds <= bounds[i]) {
        series.buckets[i] += 1;
        break;
      }
    }
  }

  /** The request counter and the latency histogram, for the registry. */
  metrics(counter: { name: string; help: string }, histogram: { name: string; help: string }): [ReadMetric, ReadMetric] {
    return [
      this.metric(counter, 'counter', (series) => [{ labels: series.labels, value: series.count }]),
      this.metric(histogram, 'histogram', (series) => {
        let cumulative = 0;
        const buckets = this.bounds.map((le, i) => {
          cumulative += series.buckets[i];
          return { metricName: `${histogram.name}_bucket`, labels: { ...series.labels, le }, value: cumulative };
        });
        return [
          ...buckets,
          { metricName: `${histogram.name}_bucket`, labels: { ...series.labels, le: '+Inf' }, value: series.count },
          { metricName: `${histogram.name}_sum`, labels: series.labels, value: series.sum },
          { metricName: `${histogram.name}_count`, labels: series.labels, value: series.count },
        ];
      }),
    ];
  }

  private metric(
    { name, help }: { name: string; help: string },
    type: ReadMetric['type'],
    valuesOf: (series: Series) => Array<{ metricName?: string; labels: Record<string, string | number>; value: number }>,
  ): ReadMetric {
    return {
      name, help, type, aggregator: 'sum',
      get: async () => ({ name, help, type, aggregator: 'sum', values: [...this.all()].flatMap(valuesOf) }),
    };
  }

  private *all(): Iterable<Series> {
    for (const byMethod of this.byRoute.values()) for (const byStatus of byMethod.values()) yield* byStatus.values();
  }
}
