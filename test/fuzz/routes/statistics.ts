import fc from 'fast-check';
import type { Mutation } from '../draft';
import { text } from '../fields';
import { pathParameterDefects, QueryRules, unreadBodyOddities } from '../mutations';
import { encoded, NOT_A_DATE, NOT_A_PAGE, NOT_A_PAGE_SIZE } from '../values';
import type { RouteContext } from './context';
import { draft, fuzzer, keyed, plus, RouteFuzzer, values } from './route-fuzzer';

/** Download statistics, adoption and the activity feed. */
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
  const adoptionRules: QueryRules = {
    from: { valid: dates, invalid: values(...NOT_A_DATE) },
    to: { valid: dates, invalid: values(...NOT_A_DATE) },
    channel: statisticsRules.channel,
    platform: { valid: values('windows', 'macos', 'linux', 'any'), invalid: values('', 'Linux', 'darwin', 'beos', '__proto__') },
    arch: { valid: values('x64', 'arm64', 'universal', 'any'), invalid: values('', 'X64', 'x86_64', 'sparc', '__proto__') },
  };
  const pageRules: QueryRules = {
    page: { valid: values('1', '2', '1000'), invalid: values(...NOT_A_PAGE) },
    pageSize: { valid: values('1', '20', '100'), invalid: values(...NOT_A_PAGE_SIZE) },
  };
  const tooLong: Mutation = { label: 'range over a year', defect: true, expects: [400], apply: (d) => d.query.push(['from', '2020-01-01'], ['to', '2026-01-01']) };
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
      method: 'GET', path: '/v1/applications/:applicationId/adoption', changesData: false,
      base: draft('GET', '/v1/applications/:applicationId/adoption', { applicationId: f.apps.main }, admin),
      ...plus(keyed('admin', keys, adoptionRules), [
        pathParameterDefects('applicationId', fc.oneof(text.hostileSegment('app'), text.badApplicationId.map(encoded))),
        fc.constant(fromAfterTo),
        fc.constant(tooLong),
      ]),
    }),
    fuzzer({
      method: 'GET', path: '/v1/applications/:applicationId/customers/adoption', changesData: false,
      base: draft('GET', '/v1/applications/:applicationId/customers/adoption', { applicationId: f.apps.main }, admin),
      ...plus(keyed('admin', keys, pageRules), [
        pathParameterDefects('applicationId', fc.oneof(text.hostileSegment('app'), text.badApplicationId.map(encoded))),
      ]),
    }),
    fuzzer({
      method: 'GET', path: '/v1/activity', changesData: false,
      base: draft('GET', '/v1/activity', {}, admin),
      ...plus(keyed('admin', keys, activityRules), [], [unreadBodyOddities]),
    }),
  ];
}
