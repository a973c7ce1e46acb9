import { EventEmitter } from 'node:events';
import fsp from 'node:fs/promises';
import http, { ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import https from 'node:https';
import Module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import {
  configureRequestOptions,
  configureRequestUrl,
  CURRENT_APP_INSTALLER_FILE_NAME,
  DownloadOptions,
  HttpExecutor,
} from 'builder-util-runtime';
import { AppUpdater, DebUpdater, MacUpdater, NsisUpdater, UpdateCheckResult } from 'electron-updater';
import type { AppAdapter } from 'electron-updater/out/AppAdapter';

/**
 * electron-updater, the npm package Electron apps ship, driven in plain Node as electron-builder's own
 * tests drive it: a stub app adapter in place of Electron's `app`, a Node HTTP executor in place of
 * Electron's `net`, and `_testOnlyOptions.platform` to pose as each OS. Everything else (channel-file
 * names, YAML parsing, version comparison, file choice, redirects and the headers kept across them,
 * the sha512 check of the download) is the package's own code.
 */

/** One request the client made: where, with which of the headers the tests check, and how many body bytes came back. */
export interface ClientRequestRecord {
  url: string;
  authorization: string | undefined;
  range: string | undefined;
  status?: number;
  /** Bytes of the response body received (none for a redirect, whose body is not read). */
  bodyBytes: number;
}

/** Electron's `net` executor, on node:http: same request options, redirects followed as Electron's `net.request` follows them. */
class NodeHttpExecutor extends HttpExecutor<ClientRequest> {
  /** Every request the client made, in order, with the headers it sent: what the tests check of redirects. */
  readonly requests: ClientRequestRecord[] = [];

  createRequest(options: RequestOptions, callback: (response: IncomingMessage) => void): ClientRequest {
    return new NetLikeRequest(options, callback, this.requests) as unknown as ClientRequest;
  }

  /** What ElectronHttpExecutor.download does, without Electron: the base class pipes through the sha512 check. */
  download(url: URL, destination: string, options: DownloadOptions): Promise<string> {
    return options.cancellationToken.createPromise((resolve, reject, onCancel) => {
      const requestOptions: RequestOptions = { headers: options.headers || undefined };
      configureRequestUrl(url, requestOptions);
      configureRequestOptions(requestOptions);
      this.doDownload(requestOptions, {
        destination,
        options,
        onCancel,
        callback: (error) => (error == null ? resolve(destination) : reject(error)),
        responseHandler: null,
      }, 0);
    });
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Electron's `net.request` as electron-updater uses it, on node:http. A redirect is followed by the
 * request itself (`redirect: 'follow'`, the default; the differential downloader's multi-range
 * requests rely on it), or with `redirect: 'manual'` announced by a `redirect` event whose listener
 * calls followRedirect() (its single-range requests; the package's Node code, which listens for no
 * such event, reads a manual redirect's 3xx itself). Headers go along, those that carry
 * credentials dropped on a cross-origin redirect (HttpExecutor.prepareRedirectUrlOptions, the
 * package's own rule).
 */
class NetLikeRequest extends EventEmitter {
  private current: ClientRequest | undefined;
  private followAsked = false;

  constructor(private options: RequestOptions & { redirect?: string }, private readonly callback: (response: IncomingMessage) => void, private readonly log: ClientRequestRecord[]) {
    super();
  }

  end(): void {
    this.send(this.options);
  }

  abort(): void {
    this.current?.destroy();
  }

  destroy(): void {
    this.abort();
  }

  followRedirect(): void {
    this.followAsked = true;
  }

  private send(options: RequestOptions & { redirect?: string }): void {
    this.options = options;
    const headers = (options.headers ?? {}) as Record<string, string | undefined>;
    const header = (name: string) => Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
    const record: ClientRequestRecord = {
      url: `${options.protocol}//${options.hostname}${options.port ? `:${options.port}` : ''}${options.path}`,
      authorization: header('authorization'),
      range: header('range'),
      bodyBytes: 0,
    };
    this.log.push(record);
    const { redirect: _redirect, ...nodeOptions } = options;
    // A connection per request: the package sets a timeout on each request's socket, which would pile up on a kept-alive one.
    const request = (options.protocol === 'https:' ? https : http).request({ ...nodeOptions, agent: false }, (response) => {
      record.status = response.statusCode;
      const location = response.headers.location;
      // A manual redirect nobody listens for is the caller's: the package's Node code reads the 3xx itself (HttpExecutor.doDownload).
      const callerFollows = options.redirect === 'manual' && this.listenerCount('redirect') === 0;
      if (REDIRECTS.has(response.statusCode ?? 0) && location && !callerFollows) {
        response.resume();
        this.redirect(response.statusCode as number, new URL(location, record.url).href);
        return;
      }
      this.callback(response);
      response.on('data', (chunk: Buffer) => {
        record.bodyBytes += chunk.length;
      });
    });
    this.current = request;
    request.on('error', (error) => this.emit('error', error));
    request.on('socket', (socket) => this.emit('socket', socket));
    request.end();
  }

  private redirect(status: number, location: string): void {
    // As sent: a listener may point the shared options elsewhere before it follows.
    const sent = { ...this.options, headers: { ...this.options.headers } };
    if (this.options.redirect === 'manual') {
      this.followAsked = false;
      this.emit('redirect', status, this.options.method ?? 'GET', location, {});
      // Electron cancels a manual redirect that no listener follows.
      if (!this.followAsked) return;
    }
    this.send(HttpExecutor.prepareRedirectUrlOptions(location, sent));
  }
}

/** The updater's cache directory under the app's cache path (`updaterCacheDirName`). */
const CACHE_DIR_NAME = 'bds-update-client';

/** Electron's `app`, as electron-updater sees it. */
class StubAppAdapter implements AppAdapter {
  constructor(readonly version: string, private readonly directory: string, readonly appUpdateConfigPath: string) {}
  readonly name = 'bds-update-client';
  readonly isPackaged = true;
  get userDataPath() { return path.join(this.directory, 'user-data'); }
  get baseCachePath() { return path.join(this.directory, 'cache'); }
  whenReady() { return Promise.resolve(); }
  quit() {}
  relaunch() {}
  onQuit() {}
}

/** Squirrel.Mac's Electron binding, which MacUpdater hands the downloaded zip to. Nothing here installs. */
class StubNativeUpdater extends EventEmitter {
  feedUrl: unknown;
  setFeedURL(options: unknown) { this.feedUrl = options; }
  checkForUpdates() {}
  quitAndInstall() {}
}

export type ElectronPlatform = 'win32' | 'darwin' | 'linux';

export interface ElectronClientOptions {
  /** The feed base, as in electron-builder's `publish: {provider: generic, url}`. */
  feedUrl: string;
  /** The running app's version. */
  version: string;
  platform: ElectronPlatform;
  /** `Authorization` value, set as the app would: `autoUpdater.requestHeaders = {...}`. */
  authorization?: string;
  /** More request headers, set as the app would (`autoUpdater.requestHeaders`), e.g. `X-App-Version`. */
  headers?: Record<string, string>;
  /**
   * The install's staging user id (a UUID electron-updater keeps in the app's user data as
   * `.updaterId`, sent as `x-user-staging-id`): the same id as an earlier client, the same install
   * (after an update, running the new version). Unset, the package makes one.
   */
  stagingUserId?: string;
  /** `autoUpdater.channel`; unset, the client asks for `latest`. */
  channel?: string;
  /** The Linux arch the client names its channel file after (electron-updater reads process.arch). */
  linuxArch?: string;
  /**
   * Windows: the installer of the running version, as the last update left it in the updater's
   * cache, which makes NSIS updates differential (blockmaps and byte ranges); a failed differential
   * download then fails the download instead of falling back to the whole file (the package's test mode).
   */
  installedInstaller?: Buffer;
  /** The generic provider's `useMultipleRangeRequest` in `publish` (app-update.yml); unset, the package decides. */
  useMultipleRangeRequest?: boolean;
  /** `autoUpdater.allowDowngrade`: installs a channel file's version older than its own; unset, the package's default. */
  allowDowngrade?: boolean;
}

export interface ElectronClient {
  updater: AppUpdater;
  executor: NodeHttpExecutor;
  check(): Promise<UpdateCheckResult | null>;
  /** Downloads the update found by check(); resolves with the downloaded files' paths once their sha512 verified. */
  download(): Promise<string[]>;
  close(): Promise<void>;
}

/** NsisUpdater on Windows, MacUpdater on macOS, DebUpdater on Linux: configured as an installed app is. */
export async function electronUpdateClient(options: ElectronClientOptions): Promise<ElectronClient> {
  const directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'bds-electron-updater-'));
  // What electron-builder writes into the packaged app from its `publish` settings.
  const configPath = path.join(directory, 'app-update.yml');
  const ranges = options.useMultipleRangeRequest === undefined ? '' : `useMultipleRangeRequest: ${options.useMultipleRangeRequest}\n`;
  await fsp.writeFile(configPath, `provider: generic\nurl: ${options.feedUrl}\nupdaterCacheDirName: ${CACHE_DIR_NAME}\n${ranges}`);
  // Where NsisUpdater keeps the installed version's installer (CURRENT_APP_INSTALLER_FILE_NAME), the old file of a differential download.
  if (options.installedInstaller) {
    const cacheDirectory = path.join(directory, 'cache', CACHE_DIR_NAME);
    await fsp.mkdir(cacheDirectory, { recursive: true });
    await fsp.writeFile(path.join(cacheDirectory, CURRENT_APP_INSTALLER_FILE_NAME), options.installedInstaller);
  }
  const adapter = new StubAppAdapter(options.version, directory, configPath);
  if (options.stagingUserId) {
    await fsp.mkdir(adapter.userDataPath, { recursive: true });
    await fsp.writeFile(path.join(adapter.userDataPath, '.updaterId'), options.stagingUserId);
  }
  const updater = createUpdater(options.platform, adapter);
  const executor = new NodeHttpExecutor();
  Object.assign(updater as unknown as Record<string, unknown>, {
    httpExecutor: executor,
    _testOnlyOptions: { platform: options.platform, isUseDifferentialDownload: options.installedInstaller !== undefined },
  });
  updater.updateConfigPath = configPath;
  updater.autoDownload = false;
  updater.autoInstallOnAppQuit = false;
  updater.logger = null;
  if (options.authorization || options.headers) {
    updater.requestHeaders = { ...options.headers, ...(options.authorization ? { Authorization: options.authorization } : {}) };
  }
  if (options.channel) updater.channel = options.channel;
  // After the channel, whose setter turns it on.
  if (options.allowDowngrade !== undefined) updater.allowDowngrade = options.allowDowngrade;
  const withArch = <T>(run: () => Promise<T>) => withLinuxArch(options.linuxArch, run);
  return {
    updater,
    executor,
    check: () => withArch(() => updater.checkForUpdates()),
    download: () => withArch(() => updater.downloadUpdate()),
    close: async () => {
      // MacUpdater serves the zip to Squirrel.Mac from a local server, which the stub never asks.
      if (updater instanceof MacUpdater) (updater as unknown as { closeServerIfExists(): void }).closeServerIfExists();
      await fsp.rm(directory, { recursive: true, force: true });
    },
  };
}

function createUpdater(platform: ElectronPlatform, adapter: AppAdapter): AppUpdater {
  if (platform === 'win32') return new NsisUpdater(undefined, adapter);
  if (platform === 'linux') return new DebUpdater(undefined, adapter);
  return withStubElectron(() => new MacUpdater(undefined, adapter));
}

/** MacUpdater takes Electron's autoUpdater when it is built; only `require('electron')` is answered differently. */
function withStubElectron<T>(build: () => T): T {
  const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const load = loader._load;
  loader._load = (request: string, ...rest: unknown[]) => (request === 'electron' ? { autoUpdater: new StubNativeUpdater() } : load(request, ...rest));
  try {
    return build();
  } finally {
    loader._load = load;
  }
}

/** electron-updater's own test switch for the arch in Linux channel-file names (Provider.getChannelFilePrefix). */
async function withLinuxArch<T>(arch: string | undefined, run: () => Promise<T>): Promise<T> {
  if (arch === undefined) return run();
  const before = process.env.TEST_UPDATER_ARCH;
  process.env.TEST_UPDATER_ARCH = arch;
  try {
    return await run();
  } finally {
    if (before === undefined) delete process.env.TEST_UPDATER_ARCH;
    else process.env.TEST_UPDATER_ARCH = before;
  }
}
