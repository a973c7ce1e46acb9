import { expect } from 'chai';
import { RequestSeries } from '../../shared/metrics/request-series';

/** Requests counted as plain numbers and read in prom-client's form at scrape time. */
describe('request series', () => {
  it('counts each route, method and status apart, with cumulative buckets, a sum and a count', async () => {
    const series = new RequestSeries([0.01, 0.1]);
    for (const seconds of [0.005, 0.01, 0.05, 2]) series.record('/v1/things/:thingId', 'GET', 200, seconds);
    series.record('/v1/things/:thingId', 'HEAD', 200, 0.001);
    series.record('unmatched', 'GET', 404, 0.2);
    const [counter, histogram] = series.metrics({ name: 'requests_total', help: 'r' }, { name: 'seconds', help: 's' });

    expect((await counter.get()).values).to.deep.equal([
      { labels: { route: '/v1/things/:thingId', method: 'GET', status: '200' }, value: 4 },
      { labels: { route: '/v1/things/:thingId', method: 'HEAD', status: '200' }, value: 1 },
      { labels: { route: 'unmatched', method: 'GET', status: '404' }, value: 1 },
    ]);
    const get = (await histogram.get()).values.filter((v) => v.labels.method === 'GET' && v.labels.status === '200');
    expect(get.map((v) => [v.metricName, v.labels.le, v.value])).to.deep.equal([
      ['seconds_bucket', 0.01, 2],
      ['seconds_bucket', 0.1, 3],
      ['seconds_bucket', '+Inf', 4],
      ['seconds_sum', undefined, 2.065],
      ['seconds_count', undefined, 4],
    ]);
  });
});
