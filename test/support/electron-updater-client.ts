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

/** Electron's `net` executor, on node:http: same request options, redirects followed by the base class. */
class NodeHttpExecutor extends HttpExecutor<ClientRequest> {
  /** Every request the client made, in order, with the headers it sent: what the tests check of redirects. */
  readonly requests: { url: string; authorization: string | undefined; range: string | undefined }[] = [];

  createRequest(options: RequestOptions, callback: (response: IncomingMessage) => void): ClientRequest {
    const headers = (options.headers ?? {}) as Record<string, string | undefined>;
    const header = (name: string) => Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
    this.requests.push({
      url: `${options.protocol}//${options.hostname}${options.port ? `:${options.port}` : ''}${options.path}`,
      authorization: header('authorization'),
      range: header('range'),
    });
    return (options.protocol === 'https:' ? https : http).request(options, callback);
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
  /** `autoUpdater.channel`; unset, the client asks for `latest`. */
  channel?: string;
  /** The Linux arch the client names its channel file after (electron-updater reads process.arch). */
  linuxArch?: string;
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
  await fsp.writeFile(configPath, `provider: generic\nurl: ${options.feedUrl}\nupdaterCacheDirName: bds-update-client\n`);
  const adapter = new StubAppAdapter(options.version, directory, configPath);
  const updater = createUpdater(options.platform, adapter);
  const executor = new NodeHttpExecutor();
  Object.assign(updater as unknown as Record<string, unknown>, {
    httpExecutor: executor,
    _testOnlyOptions: { platform: options.platform },
  });
  updater.updateConfigPath = configPath;
  updater.autoDownload = false;
  updater.autoInstallOnAppQuit = false;
  updater.logger = null;
  if (options.authorization) updater.requestHeaders = { Authorization: options.authorization };
  if (options.channel) updater.channel = options.channel;
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
