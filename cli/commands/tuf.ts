import type { AnswerOf, BodyOf } from '../../shared/contract/client';
import { createPrivateKey } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Metadata, MetadataKind, type Root } from '@tufjs/models';
import { Command, InvalidArgumentError } from 'commander';
import { TUF_ROOT_EXPIRY_DEFAULT_SECONDS, TUF_ROOT_MAX_KEYS } from '../../shared/policy';
import { generateTufKey, importTufKey, type TufKeyPair } from '../../shared/tuf/keys';
import { draftRoot, rotateRoot, signRoot } from '../../shared/tuf/root';
import { action } from '../context';
import { UsageError } from '../errors';

/*
 * `bds tuf`: the vendor's side of an application's TUF repository. Root keys are made and used on the
 * machine running the command (which may be offline between `bds tuf show --json` and the upload):
 * their private halves are written to files the vendor keeps and never sent; the service receives the
 * public keys inside the signed root only.
 */


type Context = Parameters<Parameters<typeof action>[0]>[0];

const count = (name: string) => (value: string): number => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > TUF_ROOT_MAX_KEYS) throw new InvalidArgumentError(`${name} must be a whole number from 1 to ${TUF_ROOT_MAX_KEYS}`);
  return parsed;
};
const days = (value: string): number => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > 3650) throw new InvalidArgumentError('must be a whole number of days from 1 to 3650');
  return parsed;
};
const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

interface KeyOptions {
  /** An environment variable holding the passphrase that encrypts (and opens) the private key files. */
  passphraseEnv?: string;
  keysDir?: string;
  keys?: number;
  importKey?: string[];
  threshold?: number;
  expiresDays?: number;
}

/** Root keys: those imported from PKCS#8 PEM files, else `keys` fresh ones written (0600, never overwriting) under `keysDir`. */
async function rootKeys(options: KeyOptions): Promise<{ keys: TufKeyPair[]; written: string[] }> {
  const passphrase = passphraseOf(options);
  if (options.importKey?.length) {
    if (options.keys !== undefined) throw new UsageError('--keys makes new keys: leave it out with --import-key');
    return { keys: await Promise.all(options.importKey.map((file) => readKey(file, passphrase))), written: [] };
  }
  if (!options.keysDir) throw new UsageError('--keys-dir <dir> is required: the new root keys are written there (keep it offline)');
  await fs.mkdir(options.keysDir, { recursive: true, mode: 0o700 });
  const keys = Array.from({ length: options.keys ?? 1 }, () => generateTufKey());
  const written: string[] = [];
  for (const key of keys) {
    const file = path.join(options.keysDir, `root-${key.keyId.slice(0, 16)}.pem`);
    const pem = createPrivateKey({ key: Buffer.from(key.privateKey, 'base64'), format: 'der', type: 'pkcs8' })
      .export(passphrase ? { format: 'pem', type: 'pkcs8', cipher: 'aes-256-cbc', passphrase } : { format: 'pem', type: 'pkcs8' });
    await fs.writeFile(file, pem, { mode: 0o600, flag: 'wx' });
    written.push(file);
  }
  return { keys, written };
}

/** The passphrase of --passphrase-env: the variable must be set and not empty. */
function passphraseOf(options: KeyOptions): string | undefined {
  if (options.passphraseEnv === undefined) return undefined;
  const passphrase = process.env[options.passphraseEnv];
  if (!passphrase) throw new UsageError(`the environment variable ${options.passphraseEnv} (--passphrase-env) is not set`);
  return passphrase;
}

/** An ed25519 private key from a PKCS#8 PEM file, opened with `passphrase` when it is encrypted. */
async function readKey(file: string, passphrase: string | undefined): Promise<TufKeyPair> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the key file ${file}: ${(error as Error).message}`);
  }
  try {
    const opened = createPrivateKey(passphrase ? { key: text, passphrase } : text);
    return importTufKey(opened.export({ format: 'der', type: 'pkcs8' }).toString('base64'));
  } catch (error) {
    throw new UsageError(`${file} is no ed25519 private key in PKCS#8 PEM${passphrase ? '' : ' (an encrypted one needs --passphrase-env)'}: ${(error as Error).message}`);
  }
}

function threshold(options: KeyOptions, keys: readonly TufKeyPair[]): number {
  const wanted = options.threshold ?? 1;
  if (wanted > keys.length) throw new UsageError(`--threshold ${wanted} needs at least ${wanted} root keys (there are ${keys.length})`);
  return wanted;
}

/** Uploads the signed root, keeps a copy beside the keys, and prints what was done. */
async function upload(context: Context, applicationId: string, root: Metadata<Root>, keys: readonly TufKeyPair[], written: readonly string[], keysDir?: string): Promise<void> {
  const document = root.toJSON();
  if (keysDir) await fs.writeFile(path.join(keysDir, `${root.signed.version}.root.json`), `${JSON.stringify(document, null, 2)}\n`);
  const data = await context.client().uploadTufRoot({ applicationId }, document as BodyOf<'uploadTufRoot'>);
  context.output.result({ ...data, rootKeyIds: keys.map((key) => key.keyId), keyFiles: written }, () => {
    context.output.line(`root version ${root.signed.version} uploaded for ${applicationId} (threshold ${root.signed.roles.root.threshold} of ${keys.length})`);
    context.output.table(['root key', 'private key file'], keys.map((key, index) => [key.keyId, written[index] ?? '(imported)']));
    if (written.length > 0) context.output.line('Move the private key files to offline storage: the service never sees them, and the next rotation needs them.');
    context.output.line(`TUF metadata: ${context.settings().baseUrl}/t/<access token>${data.path}/  (targets: ${data.path}/targets/)`);
  });
}

function printRepository(context: Context, data: AnswerOf<'getTufRepository'>): void {
  context.output.result(data, () => {
    context.output.table(['role', 'key id', 'public key'], (['targets', 'snapshot', 'timestamp'] as const).map((role) => [
      role, data.onlineKeys[role].keyId, data.onlineKeys[role].publicKey,
    ]));
    context.output.line(data.root ? `root version ${data.root.version}, uploaded ${data.root.uploadedAt}` : 'no root yet: run bds tuf init');
    context.output.line(`metadata: ${context.settings().baseUrl}/t/<access token>${data.path}/`);
  });
}

export function tufCommand(): Command {
  const command = new Command('tuf').description("An application's TUF repository: root keys kept offline by you, online roles signed by the service");
  command.command('show').description('The online public keys a root must name, and the latest root')
    .argument('<applicationId>')
    .action(action(async (context, applicationId: string) => {
      const data = await context.client().getTufRepository({ applicationId: applicationId });
      printRepository(context, data);
    }));
  command.command('init').description('Make the first root: generate root keys here (or import yours), sign root version 1 with them, upload it (public keys only)')
    .argument('<applicationId>')
    .option('--keys-dir <dir>', 'where the new private root keys are written (0600); keep it offline')
    .option('--keys <n>', 'how many root keys to generate (default 1)', count('--keys'))
    .option('--import-key <file>', 'use this ed25519 private key (PKCS#8 PEM) as a root key instead; repeatable', collect)
    .option('--threshold <n>', 'how many root keys must sign a root (default 1)', count('--threshold'))
    .option('--passphrase-env <name>', 'an environment variable holding a passphrase: new key files are encrypted with it (AES-256), imported ones opened')
    .option('--expires-days <days>', `the root's lifetime (default ${TUF_ROOT_EXPIRY_DEFAULT_SECONDS / 86_400})`, days)
    .action(action(async (context, applicationId: string, options: KeyOptions) => {
      const data = await context.client().getTufRepository({ applicationId: applicationId });
      if (data.root) throw new UsageError(`${applicationId} has root version ${data.root.version} already: use bds tuf rotate`);
      const { keys, written } = await rootKeys(options);
      const root = signRoot(draftRoot({
        version: 1, rootKeys: keys, threshold: threshold(options, keys), online: data.onlineKeys,
        expiresInSeconds: (options.expiresDays ?? TUF_ROOT_EXPIRY_DEFAULT_SECONDS / 86_400) * 86_400, now: new Date(),
      }), keys);
      await upload(context, applicationId, root, keys, written, options.keysDir);
    }));
  command.command('rotate').description('Make root version N+1 with new root keys, signed by the current root keys and the new ones, and upload it')
    .argument('<applicationId>')
    .requiredOption('--old-key <file>', 'a current root private key (PKCS#8 PEM); repeat up to the current threshold', collect)
    .option('--keys-dir <dir>', 'where the new private root keys are written (0600); keep it offline')
    .option('--keys <n>', 'how many new root keys to generate (default 1)', count('--keys'))
    .option('--import-key <file>', 'use this ed25519 private key (PKCS#8 PEM) as a new root key instead; repeatable', collect)
    .option('--threshold <n>', 'how many of the new root keys must sign a root (default 1)', count('--threshold'))
    .option('--passphrase-env <name>', 'an environment variable holding the passphrase of the key files: old and imported ones opened, new ones encrypted')
    .option('--expires-days <days>', `the new root's lifetime (default ${TUF_ROOT_EXPIRY_DEFAULT_SECONDS / 86_400})`, days)
    .action(action(async (context, applicationId: string, options: KeyOptions & { oldKey: string[] }) => {
      const data = await context.client().getTufRepository({ applicationId: applicationId });
      if (!data.root) throw new UsageError(`${applicationId} has no root yet: use bds tuf init`);
      const previous = Metadata.fromJSON(MetadataKind.Root, data.root.document as never);
      const previousKeys = await Promise.all(options.oldKey.map((file) => readKey(file, passphraseOf(options))));
      const unknown = previousKeys.filter((key) => !previous.signed.roles.root.keyIDs.includes(key.keyId));
      if (unknown.length > 0) throw new UsageError(`not a key of root version ${previous.signed.version}: ${unknown.map((key) => key.keyId).join(', ')}`);
      const { keys, written } = await rootKeys(options);
      const root = rotateRoot({
        previous, previousKeys, newKeys: keys, threshold: threshold(options, keys), online: data.onlineKeys,
        expiresInSeconds: (options.expiresDays ?? TUF_ROOT_EXPIRY_DEFAULT_SECONDS / 86_400) * 86_400, now: new Date(),
      });
      await upload(context, applicationId, root, keys, written, options.keysDir);
    }));
  return command;
}
