import { InstallHasher } from '../../shared/adoption/install-hash';
import { newEventId } from '../../shared/ids';
import type { Logger } from '../../shared/logger';
import type { EventRecorder } from '../../shared/events/event-recorder';
import type { Arch, Platform } from '../../shared/releases/platforms';
import { UNKNOWN_VERSION, type UpdateClientFamily } from '../../shared/store/models';
import { clientAddress } from '../http/client-origin';
import { versionField } from '../../shared/contract/fields';
import type { AppContext, CustomerPrincipal } from '../http/context';

/**
 * What a feed knows of one answered check. Where each client family's fields come from:
 * - electron-updater (channel file GET): platform, arch and channel from the file's name; the running
 *   version only when the app adds `X-App-Version` (electron-updater sends none: User-Agent
 *   `electron-builder`), install identity from `x-user-staging-id`.
 * - Tauri: target, arch and current version in the path; channel in the query; no identity.
 * - Squirrel.Mac: current version in the path, arch and channel in the query; no identity.
 * - Squirrel.Windows (RELEASES): `id` and `localVersion` in the query, arch from the package names.
 * - Sparkle (appcast): the running version (the app's bundle version) in the User-Agent
 *   (`<App>/<version> Sparkle/<v>`, read by sparkle-routes.ts); `appVersion` too when the app sends system profiles.
 * - Velopack: `id`, `localVersion` and `arch` in the query of `releases.<channel>.json`.
 */
export interface UpdateCheckFacts {
  applicationId: string;
  client: UpdateClientFamily;
  platform: Platform;
  arch: Arch;
  channel: string;
  /** The version the client says it runs; undefined when it does not say. */
  runningVersion: string | undefined;
  /** The version the answer offers; null when it offers none. */
  offeredVersion: string | null;
  /** An install identity the client sent; null when none (then the address stands for the install in the hash). */
  installId: string | null;
}

/** Bounds what a client's identity header can make us store. */
const INSTALL_ID_MAX_LENGTH = 128;

/**
 * Records every answered update check as a check event: the one call a feed route makes once it has
 * its answer. The write is not awaited: the check answers at once, and the event joins the other
 * checks of its window in one append (the event recorder's windowed group commit); a write the
 * store refuses is logged, never the check's failure.
 */
export class UpdateCheckRecorder {
  private hasher: InstallHasher | undefined;
  private failing = false;
  /** The write the last check joined: its outcome is watched once, not once per check. */
  private watched: Promise<void> | undefined;

  constructor(
    private readonly events: EventRecorder,
    private readonly hashKey: () => Buffer,
    private readonly logger: Logger,
    /** false: checks are answered without being recorded (RECORD_UPDATE_CHECKS=false). */
    private readonly enabled = true,
  ) {}

  recordUpdateCheck(ctx: AppContext, customer: CustomerPrincipal, facts: UpdateCheckFacts): void {
    // A HEAD checks nothing for the client: no answer is taken.
    if (!this.enabled || ctx.method !== 'GET') return;
    const at = new Date();
    const userAgent = ctx.get('User-Agent').slice(0, 512) || null;
    this.hasher ??= new InstallHasher(this.hashKey());
    const installHash = this.hasher.hash(at, customer.customerId, facts.installId ?? clientAddress(ctx), userAgent);
    const stored = this.events.recordCheck({
      eventId: newEventId(at),
      applicationId: facts.applicationId,
      customerId: customer.customerId,
      client: facts.client,
      platform: facts.platform,
      arch: facts.arch,
      channel: facts.channel,
      runningVersion: facts.runningVersion ?? UNKNOWN_VERSION,
      offeredVersion: facts.offeredVersion,
      installId: facts.installId,
      installHash,
      timestamp: at,
    });
    if (stored === this.watched) return;
    this.watched = stored;
    stored.then(() => this.recovered(), (error: unknown) => this.failed(error));
  }

  /** electron-updater's install identity: the staging user id it sends with every request (a UUID). */
  static electronInstallId(ctx: AppContext): string | null {
    const id = ctx.get('x-user-staging-id');
    return id ? id.slice(0, INSTALL_ID_MAX_LENGTH) : null;
  }

  /**
   * The version an electron-updater app says it runs, when it adds `X-App-Version` to its requests
   * (`autoUpdater.requestHeaders`); electron-updater itself sends none. A value that is not a version
   * is left out (the check counts as `unknown`): the header only describes the check, so it never
   * refuses one.
   */
  static electronRunningVersion(ctx: AppContext): string | undefined {
    const header = ctx.get('x-app-version');
    // Most checks carry none: no schema run (and no failed parse's error built) on the feeds' hot path.
    if (header === '') return undefined;
    const parsed = versionField.safeParse(header);
    return parsed.success ? parsed.data : undefined;
  }

  /** Logged once per run of failures, so an outage does not log every check. */
  private failed(error: unknown): void {
    if (this.failing) return;
    this.failing = true;
    this.logger.warn({ err: error }, 'update checks are not being recorded');
  }

  private recovered(): void {
    if (!this.failing) return;
    this.failing = false;
    this.logger.info('update checks are recorded again');
  }
}
