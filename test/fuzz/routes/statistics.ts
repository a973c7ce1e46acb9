import fc from 'fast-check';
import type { Mutation } from '../draft';
import { text } from '../fields';
import { pathParameterDefects, QueryRules, unreadBodyOddities } from '../mutations';
import { encoded, NOT_A_DATE, NOT_A_PAGE_SIZE } from '../values';
import type { RouteContext } from './context';
import { draft, fuzzer, keyed, plus, RouteFuzzer, values } from './route-fuzzer';

/** Download statistics and the activity feed. */
export function statisticsFuzzers({ f, keys, admin }: RouteContext): RouteFuzzer[] {
  const dates = values('2024-01-01', '2026-12-31', '1970-01-01', '9999-12-31');
  const statisticsRules: QueryRules = {
    version: { valid: values(f.versions.open, '9.9.9', '%'), invalid: values('', ' ', 'x'.repeat(129), 'a b', '1\u00000', '1\n0', 'é') },
    channel: { valid: values('stable', 'beta', 'dev'), invalid: values('', 'nightly', 'Stable', 'latest', '__proto__') },
    from: { valid: dates, invalid: values(...NOT_A_DATE) },
    to: { valid: dates, invalid: values(...NOT_A_DATE) },
  };
  const activityRules: QueryRules = {
    type: { valid: values('upload', 'download'), invalid: values('UPLOAD', 'uploads', '', 'delete', '__proto__') },
    applicationId: { valid: values(f.apps.main, 'nothing-here'), invalid: fc.oneof(text.badApplicationId, values('')) },
    limit: { valid: values('1', '20', '100'), invalid: values(...NOT_A_PAGE_SIZE) },
    // No valid cursor to make up: one comes only from a page.
    cursor: {
      invalid: values('x', '', 'a'.repeat(513), '__proto__', Buffer.from('{"t":1}').toString('base64url'), Buffer.from('garbage').toString('base64'), '%%%'),
    },
  };
  const fromAfterTo: Mutation = { label: 'from after to', defect: true, expects: [400], apply: (d) => d.query.push(['from', '2025-01-02'], ['to', '2025-01-01']) };

  return [
    fuzzer({
      method: 'GET', path: '/v1/applications/:applicationId/stats', changesData: false,
      base: draft('GET', '/v1/applications/:applicationId/stats', { applicationId: f.apps.main }, admin),
      ...plus(keyed('admin', keys, statisticsRules), [
        pathParameterDefects('applicationId', fc.oneof(text.hostileSegment('app'), text.badApplicationId.map(encoded))),
        fc.constant(fromAfterTo),
      ]),
    }),
    fuzzer({
      method: 'GET', path: '/v1/activity', changesData: false,
      base: draft('GET', '/v1/activity', {}, admin),
      ...plus(keyed('admin', keys, activityRules), [], [unreadBodyOddities]),
    }),
  ];
}
