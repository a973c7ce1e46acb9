import { execFile } from 'node:child_process';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse as parseSemVer, gt } from 'semver';

const run = promisify(execFile);

/**
 * Tauri's updater (tauri-plugin-updater, `updater.rs`) step by step, for a test to drive: the
 * endpoint's `{{target}}`, `{{arch}}` and `{{current_version}}` filled in as it fills them, its
 * headers sent with `Accept: application/json`, 204 read as "no update", the answer read as its
 * deserializer reads it, the download sent with the same headers and redirects followed as reqwest
 * follows them (sensitive headers dropped when the host, port or scheme changes), and the bytes
 * verified by minisign, the verifier the updater embeds, against the app's configured `pubkey`.
 */

export interface TauriUpdate {
  version: string;
  url: string;
  signature: string;
  notes: string | null;
  pubDate: string | null;
}

export interface TauriClientOptions {
  /** An entry of `plugins.updater.endpoints`, with Tauri's placeholders. */
  endpoint: string;
  /** `updater_os()`: linux, darwin, windows. */
  target: string;
  /** `get_updater_arch()`: x86_64, aarch64, i686, armv7. */
  arch: string;
  currentVersion: string;
  /** `plugins.updater.headers` (or the `headers` option of check()). */
  headers: Record<string, string>;
  /** `plugins.updater.pubkey`: the key `tauri signer generate` printed. */
  pubkey: string;
  /**
   * `UpdaterBuilder::version_comparator(|current, update| ...)`: whether the answered version is
   * installed; unset, the plugin's default, `update.version > current`.
   */
  versionComparator?: (current: string, remote: string) => boolean;
}

/** What a request of the client got: for tests to check which headers reached which host. */
export interface SentRequest {
  url: string;
  authorization: string | undefined;
}

const REQWEST_MAX_REDIRECTS = 10;
/** reqwest's `remove_sensitive_headers` on a redirect to another origin. */
const SENSITIVE_HEADERS = ['authorization', 'cookie', 'proxy-authorization', 'www-authenticate'];

export class TauriUpdateClient {
  readonly requests: SentRequest[] = [];

  constructor(private readonly options: TauriClientOptions) {}

  /** null when the server answers 204 or offers nothing newer; throws where the updater errors. */
  async check(): Promise<TauriUpdate | null> {
    // The updater percent-encodes the version with `+` escaped, then fills the URL's placeholders.
    const version = encodeURIComponent(this.options.currentVersion).replace(/%2E/g, '.');
    const url = this.options.endpoint
      .replace('{{current_version}}', version)
      .replace('{{target}}', this.options.target)
      .replace('{{arch}}', this.options.arch);
    const response = await this.get(url, 'application/json');
    if (response.status === 204) return null;
    if (!response.ok) throw new Error(`Could not fetch a valid release JSON from the remote (${response.status})`);
    const release = await response.json() as Record<string, unknown>;
    const remoteVersion = parseSemVer(String(release.version ?? release.name).replace(/^v+/, ''));
    if (!remoteVersion) throw new Error(`invalid version: ${String(release.version)}`);
    if (typeof release.url !== 'string' || typeof release.signature !== 'string') {
      throw new Error('the `url` or `signature` field was not set on the updater response');
    }
    if (release.pub_date != null && Number.isNaN(Date.parse(String(release.pub_date)))) throw new Error('invalid value for `pub_date`');
    const accepts = this.options.versionComparator ?? ((current: string, remote: string) => gt(remote, current));
    if (!accepts(this.options.currentVersion, remoteVersion.version)) return null;
    return {
      version: remoteVersion.version,
      url: release.url,
      signature: release.signature,
      notes: typeof release.notes === 'string' ? release.notes : null,
      pubDate: typeof release.pub_date === 'string' ? release.pub_date : null,
    };
  }

  /** The update's bytes, once minisign verified them against the signature and the app's key; throws otherwise. */
  async download(update: TauriUpdate): Promise<Buffer> {
    const response = await this.get(update.url, 'application/octet-stream');
    if (!response.ok) throw new Error(`Download request failed with status: ${response.status}`);
    const bytes = Buffer.from(await response.arrayBuffer());
    await minisignVerify(bytes, update.signature, this.options.pubkey);
    return bytes;
  }

  private async get(url: string, accept: string): Promise<Response> {
    let target = new URL(url);
    let headers: Record<string, string> = { ...this.options.headers, Accept: accept, 'User-Agent': 'tauri-updater' };
    for (let redirects = 0; ; redirects += 1) {
      this.requests.push({ url: target.href, authorization: Object.entries(headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1] });
      const response = await fetch(target, { headers, redirect: 'manual' });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return response;
      if (redirects >= REQWEST_MAX_REDIRECTS) throw new Error('too many redirects');
      await response.arrayBuffer();
      const next = new URL(location, target);
      if (next.host !== target.host || next.protocol !== target.protocol) {
        headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !SENSITIVE_HEADERS.includes(name.toLowerCase())));
      }
      target = next;
    }
  }
}

/** `minisign -V` over the bytes: the signature and pubkey arrive base64-encoded, as Tauri takes them. */
export async function minisignVerify(bytes: Buffer, signature: string, pubkey: string): Promise<void> {
  const directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'bds-tauri-client-'));
  try {
    const file = path.join(directory, 'update');
    await fsp.writeFile(file, bytes);
    await fsp.writeFile(`${file}.minisig`, Buffer.from(signature, 'base64'));
    await fsp.writeFile(path.join(directory, 'key.pub'), Buffer.from(pubkey, 'base64'));
    await run('minisign', ['-V', '-q', '-m', file, '-x', `${file}.minisig`, '-p', path.join(directory, 'key.pub')]);
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr;
    throw new Error(`signature verification failed${stderr ? `: ${stderr.trim()}` : ''}`);
  } finally {
    await fsp.rm(directory, { recursive: true, force: true });
  }
}
