import type { Fixture } from '../fixture';
import { accessTokenFuzzers } from './access-tokens';
import { adminKeyFuzzers } from './admin-keys';
import { applicationFuzzers } from './applications';
import { attestationFuzzers } from './attestations';
import { callerFuzzers } from './caller';
import { routeContext } from './context';
import { customerFuzzers } from './customers';
import { customerShareLinkFuzzers } from './customer-share-links';
import { deletionFuzzers } from './deletions';
import { downloadFuzzers } from './downloads';
import { logoFuzzers } from './logos';
import { metricsFuzzers } from './metrics';
import { packageFeedFuzzers } from './package-feeds';
import { repositoryFuzzers } from './repositories';
import { rolloutFuzzers, updateReportFuzzers } from './rollouts';
import type { RouteFuzzer } from './route-fuzzer';
import { sparkleFuzzers } from './sparkle';
import { tufFuzzers } from './tuf';
import { statisticsFuzzers } from './statistics';
import { unkeyedFuzzers } from './unkeyed';
import { updateFeedFuzzers } from './updates';
import { uploadFuzzers } from './uploads';
import { webhookFuzzers } from './webhooks';

export type { RouteFuzzer } from './route-fuzzer';
export { unmatchedFuzzer } from './unmatched';

/** A fuzzer for every route the gateway serves, aimed at the records of `fixture`. */
export function routeFuzzers(fixture: Fixture, adminKey: string, metricsToken: string): RouteFuzzer[] {
  const context = routeContext(fixture, adminKey, metricsToken);
  return [
    ...downloadFuzzers(context),
    ...updateFeedFuzzers(context),
    ...sparkleFuzzers(context),
    ...packageFeedFuzzers(context),
    ...repositoryFuzzers(context),
    ...tufFuzzers(context),
    ...unkeyedFuzzers(context),
    ...applicationFuzzers(context),
    ...rolloutFuzzers(context),
    ...updateReportFuzzers(context),
    ...attestationFuzzers(context),
    ...logoFuzzers(context),
    ...uploadFuzzers(context),
    ...customerFuzzers(context),
    ...customerShareLinkFuzzers(context),
    ...accessTokenFuzzers(context),
    ...deletionFuzzers(context),
    ...webhookFuzzers(context),
    ...statisticsFuzzers(context),
    ...adminKeyFuzzers(context),
    ...metricsFuzzers(context),
    ...callerFuzzers(context),
  ];
}
