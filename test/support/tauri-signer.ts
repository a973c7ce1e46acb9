import { execFile } from 'node:child_process';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { onDemandFile } from './on-demand';

const run = promisify(execFile);

/** Tauri's own CLI (`@tauri-apps/cli`, installed on demand), run as a vendor runs it. */
const tauriCli = () => onDemandFile('@tauri-apps/cli/tauri.js');

async function tauri(args: string[]): Promise<string> {
  // CI=true: generate asks nothing; an empty password keeps the key usable without a prompt.
  const { stdout } = await run(process.execPath, [tauriCli(), 'signer', ...args], { env: { ...process.env, CI: 'true' } });
  return stdout;
}

export interface TauriSigningKey {
  /** The public key as `tauri signer generate` prints it: what a vendor registers and puts in tauri.conf.json. */
  publicKey: string;
  privateKeyPath: string;
}

/** A key pair made by `tauri signer generate`, written under `directory`. */
export async function generateTauriKey(directory: string, name = 'update'): Promise<TauriSigningKey> {
  const privateKeyPath = path.join(directory, `${name}.key`);
  await tauri(['generate', '--ci', '--password', '', '--write-keys', privateKeyPath, '--force']);
  return { publicKey: (await fsp.readFile(`${privateKeyPath}.pub`, 'utf8')).trim(), privateKeyPath };
}

/** Signs `file` with `tauri signer sign`; returns the `.sig` file's content, as a vendor uploads it. */
export async function tauriSign(key: TauriSigningKey, file: string): Promise<string> {
  await tauri(['sign', '--private-key-path', key.privateKeyPath, '--password', '', file]);
  return fsp.readFile(`${file}.sig`, 'utf8');
}
