import { PathLevels } from './import-layout';

/**
 * shared/'s levels, lowest first (ARCHITECTURE.md, "shared/ by level"): words and limits; the
 * records, ports and contract written in those words; the adapters behind the ports; the mechanisms
 * that run on adapters; and the assembly that builds a process's services. A file imports from its
 * own level and below.
 */
export const SHARED_LEVELS = new PathLevels([
  {
    name: 'vocabulary',
    members: [
      'policy.ts', 'errors.ts', 'ids.ts', 'clock.ts', 'text-length.ts', 'scopes.ts', 'tiers.ts', 'markdown.ts',
      'image-type.ts', 'net.ts', 'secrets.ts', 'hashing.ts', 'rate-limit-policies.ts', 'api-keys.ts', 'logger.ts',
      'releases/platforms.ts', 'releases/channels.ts', 'releases/lifecycle.ts', 'releases/version-order.ts',
      'releases/rollout.ts', 'releases/update-client-names.ts', 'releases/visitor-platform.ts',
      'signing/minisign.ts', 'signing/sparkle.ts', 'signing/public-keys.ts',
      // The process's stopping flag and handler: adapters ask it whether a lost connection is an outage.
      'runtime/shutdown.ts',
      'webhooks/event-types.ts',
      'durations.ts', 'releases/file-types.ts', 'byte-sizes.ts', 'customer-ids.ts',
    ],
  },
  {
    name: 'records, ports and rules',
    members: ['store/', 'token-periods.ts', 'contract/', 'releases/', 'storage/object-storage.ts', 'storage/stored-part.ts', 'uploads/multipart-layout.ts', 'uploads/storage-keys.ts',
      'packages/package-identity.ts', 'packages/repository-setup.ts',
      // The TUF keys and roots: signed offline by `bds tuf` as by the service.
      'tuf/keys.ts', 'tuf/root.ts', 'tuf/repository.ts',
      // A release's funnel figures and its rollout plan's decisions: pure rules the contract names.
      'rollouts/funnel.ts', 'rollouts/rollout-plan.ts',
      // The build-output recogniser: pure rules over what build tools write, run by the CLI and the console.
      'publishing/',
      // Where webhooks may go: the rule the contract's request schemas check a URL against (and the checked resolution).
      'webhooks/destination.ts', 'webhooks/destination-rules.ts',
    ],
  },
  {
    name: 'adapters',
    members: ['store/sqlite/', 'store/mongo/', 'storage/', 'redis/', 'cache/', 'queues/', 'hashing-threads/', 'metrics/'],
  },
  {
    name: 'mechanisms',
    members: ['uploads/', 'events/', 'adoption/', 'rollouts/', 'webhooks/', 'packages/', 'signing/', 'tuf/'],
  },
  {
    name: 'assembly',
    members: ['runtime/', 'config.ts', 'store/create-store.ts', 'storage/create-object-storage.ts'],
  },
]);

/** The first level whose code a browser page or the CLI may not load: the adapters and what is built on them. */
export const SHARED_ADAPTERS_LEVEL = SHARED_LEVELS.levelOf('store/sqlite/connection.ts');
