import type { RouteContext } from './context';
import { draft, fuzzer, keyed, RouteFuzzer } from './route-fuzzer';

/** GET /v1/me: whose key this is, for either kind of key. */
export function callerFuzzers({ keys }: RouteContext): RouteFuzzer[] {
  return [
    fuzzer({
      method: 'GET', path: '/v1/me', changesData: false,
      base: draft('GET', '/v1/me', {}, `Bearer ${keys.customer}`),
      ...keyed('key', keys),
    }),
  ];
}
