import { unreadBodyOddities } from '../mutations';
import type { RouteContext } from './context';
import { draft, fuzzer, keyed, plus, RouteFuzzer } from './route-fuzzer';

/** GET /metrics: the Prometheus scrape, for the metrics token only. */
export function metricsFuzzers({ keys }: RouteContext): RouteFuzzer[] {
  return [
    fuzzer({
      method: 'GET', path: '/metrics', changesData: false,
      base: draft('GET', '/metrics', {}, `Bearer ${keys.metrics}`),
      ...plus(keyed('metrics', keys), [], [unreadBodyOddities]),
    }),
  ];
}
