import { execFileSync } from 'node:child_process';
import { hash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { MetaFile, Metadata, Timestamp } from '@tufjs/models';
import { Updater } from 'tuf-js';
import { TUF_SNAPSHOT_EXPIRY_SECONDS, TUF_TARGETS_EXPIRY_SECONDS, TUF_TIMESTAMP_EXPIRY_DEFAULT_SECONDS } from '../../shared/policy';
import { generateTufKey, tufSigner, type TufKeyPair } from '../../shared/tuf/keys';
import { signRepository, SPEC_VERSION, versionOf, type TufOnlineKeys, type TufOnlineMetadata, type TufTarget } from '../../shared/tuf/repository';
import { checkUploadedRoot, draftRoot, rotateRoot, signRoot } from '../../shared/tuf/root';
import { rejectionOf } from '../support/rejection';

const rejection = async (promise: Promise<unknown>): Promise<Error> => (await rejectionOf(promise)) as Error;

/*
 * The TUF metadata the service signs, read by tuf-js (the client npm itself uses) from a repository
 * served over HTTP in the layout of the specification, and checked again by securesystemslib (Debian's
 * python3-securesystemslib) as a second implementation of canonical JSON, key ids and ed25519.
 */

const CHANNELS = ['stable', 'beta'];
const EXPIRIES = { targets: TUF_TARGETS_EXPIRY_SECONDS, snapshot: TUF_SNAPSHOT_EXPIRY_SECONDS, timestamp: TUF_TIMESTAMP_EXPIRY_DEFAULT_SECONDS };
const ROOT_EXPIRY_SECONDS = 365 * 24 * 3600;

interface Release {
  target: TufTarget;
  bytes: Buffer;
}

function release(version: string, fileName: string, channel: string, text: string): Release {
  const bytes = Buffer.from(text);
  return {
    bytes,
    target: {
      version, fileName, channel, length: bytes.length,
      sha256: hash('sha256', bytes, 'hex'), sha512: hash('sha512', bytes, 'hex'),
      platform: 'darwin', arch: 'arm64', fileType: 'MAIN',
    },
  };
}

/** A repository over HTTP: metadata from memory, targets from a directory, every request path recorded. */
class Repository {
  readonly documents = new Map<string, string>();
  readonly targetDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tuf-targets-'));
  readonly requested: string[] = [];
  readonly clientDirs: string[] = [];
  private server?: http.Server;
  url = '';

  publish(metadata: TufOnlineMetadata): void {
    this.documents.set('timestamp.json', metadata.timestamp);
    this.documents.set('snapshot.json', metadata.snapshot);
    this.documents.set('targets.json', metadata.targets);
    for (const [channel, document] of Object.entries(metadata.channels)) this.documents.set(`${channel}.json`, document);
  }

  store(releases: readonly Release[]): void {
    for (const { target, bytes } of releases) {
      fs.mkdirSync(path.join(this.targetDir, target.version), { recursive: true });
      fs.writeFileSync(path.join(this.targetDir, target.version, target.fileName), bytes);
    }
  }

  async start(): Promise<void> {
    this.server = http.createServer((request, response) => {
      const url = decodeURIComponent(request.url ?? '/');
      this.requested.push(url);
      if (url.startsWith('/metadata/')) {
        const document = this.documents.get(url.slice('/metadata/'.length));
        if (document === undefined) return void response.writeHead(404).end();
        return void response.writeHead(200, { 'content-type': 'application/json' }).end(document);
      }
      if (url.startsWith('/targets/')) {
        const file = path.join(this.targetDir, url.slice('/targets/'.length));
        if (!file.startsWith(this.targetDir) || !fs.existsSync(file)) return void response.writeHead(404).end();
        return void response.writeHead(200).end(fs.readFileSync(file));
      }
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
    for (const dir of [this.targetDir, ...this.clientDirs]) fs.rmSync(dir, { recursive: true, force: true });
  }

  /**
   * A client that trusts `root` (what a customer ships with the application), or, given `dir`, the
   * client that ran there before, starting from the metadata it kept (as the next run of an application).
   */
  client(root: string, dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tuf-client-'))): Updater {
    if (!fs.existsSync(path.join(dir, 'root.json'))) {
      fs.writeFileSync(path.join(dir, 'root.json'), root);
      fs.mkdirSync(path.join(dir, 'targets'));
    }
    this.clientDirs.push(dir);
    return new Updater({
      metadataDir: dir,
      metadataBaseUrl: `${this.url}/metadata`,
      targetDir: path.join(dir, 'targets'),
      targetBaseUrl: `${this.url}/targets`,
      config: { fetchRetries: 0, fetchTimeout: 5_000 },
    });
  }
}

describe('TUF repository metadata, read by tuf-js', function () {
  this.timeout(20_000);
  let rootKeys: TufKeyPair[];
  let online: TufOnlineKeys;
  let rootV1: string;
  let repository: Repository;
  const stable = release('1.0.0', 'App.dmg', 'stable', 'the stable build');
  const beta = release('1.1.0-beta.1', 'App.dmg', 'beta', 'the beta build');

  beforeEach(async () => {
    rootKeys = [generateTufKey(), generateTufKey()];
    online = { targets: generateTufKey(), snapshot: generateTufKey(), timestamp: generateTufKey() };
    rootV1 = JSON.stringify(signRoot(draftRoot({ version: 1, rootKeys, threshold: 2, online, expiresInSeconds: ROOT_EXPIRY_SECONDS, now: new Date() }), rootKeys).toJSON());
    repository = new Repository();
    repository.documents.set('1.root.json', rootV1);
    repository.store([stable, beta]);
    repository.publish(sign(undefined, [stable.target, beta.target]));
    await repository.start();
  });

  afterEach(async () => repository.stop());

  function sign(previous: TufOnlineMetadata | undefined, targets: TufTarget[], now = new Date()): TufOnlineMetadata {
    return signRepository({ previous, targets, channels: CHANNELS, keys: online, expiries: EXPIRIES, now });
  }

  function current(): TufOnlineMetadata {
    const channels: Record<string, string> = {};
    for (const channel of CHANNELS) channels[channel] = repository.documents.get(`${channel}.json`)!;
    return {
      targets: repository.documents.get('targets.json')!,
      snapshot: repository.documents.get('snapshot.json')!,
      timestamp: repository.documents.get('timestamp.json')!,
      channels,
    };
  }

  it('downloads a target and checks it, reading only the channel role that holds it', async () => {
    const client = repository.client(rootV1);
    await client.refresh();
    const info = await client.getTargetInfo('1.0.0/App.dmg');
    expect(info, 'the stable target').to.not.equal(undefined);
    expect(info!.length).to.equal(stable.bytes.length);
    expect(info!.hashes).to.deep.equal({ sha256: stable.target.sha256, sha512: stable.target.sha512 });
    expect(info!.custom).to.deep.equal({ platform: 'darwin', arch: 'arm64', channel: 'stable', fileType: 'MAIN' });
    const file = await client.downloadTarget(info!);
    expect(fs.readFileSync(file)).to.deep.equal(stable.bytes);
    expect(repository.requested).to.include('/metadata/stable.json');
    expect(repository.requested, 'the beta role is not read for a stable target').to.not.include('/metadata/beta.json');
    expect(await client.getTargetInfo('9.9.9/App.dmg'), 'a target nobody published').to.equal(undefined);
  });

  it('refuses a target whose bytes were changed in storage', async () => {
    const client = repository.client(rootV1);
    await client.refresh();
    const info = await client.getTargetInfo('1.1.0-beta.1/App.dmg');
    fs.writeFileSync(path.join(repository.targetDir, '1.1.0-beta.1', 'App.dmg'), Buffer.from('the beta buil!'));
    const error = await rejection(client.downloadTarget(info!));
    expect(error.message).to.match(/hash|length/i);
  });

  it('refuses metadata whose signature does not verify', async () => {
    const document = JSON.parse(repository.documents.get('stable.json')!) as { signed: { targets: Record<string, { length: number }> } };
    document.signed.targets['1.0.0/App.dmg'].length += 1;
    // The snapshot lists the role's version only, so the role's own signature is what catches this.
    repository.documents.set('stable.json', JSON.stringify(document));
    const client = repository.client(rootV1);
    await client.refresh();
    const error = await rejection(client.getTargetInfo('1.0.0/App.dmg'));
    expect(error.message).to.match(/stable was signed by 0\/1 keys/);

    const timestamp = JSON.parse(repository.documents.get('timestamp.json')!) as { signatures: { sig: string }[] };
    timestamp.signatures[0].sig = timestamp.signatures[0].sig.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    repository.documents.set('timestamp.json', JSON.stringify(timestamp));
    const error2 = await rejection(repository.client(rootV1).refresh());
    expect(error2.message).to.match(/timestamp was signed by 0\/1 keys/);
  });

  it('signs again only what changed, each new document at the next version', () => {
    const before = current();
    expect(sign(before, [stable.target, beta.target]), 'nothing changed').to.deep.equal(before);
    const added = release('1.0.1', 'App.dmg', 'stable', 'a fix');
    const after = sign(before, [stable.target, beta.target, added.target]);
    expect(versionOf(after.channels.stable)).to.equal(2);
    expect(after.channels.beta, 'the beta role is unchanged').to.equal(before.channels.beta);
    expect(versionOf(after.targets), 'the delegation to stable gained a version').to.equal(2);
    expect(versionOf(after.snapshot)).to.equal(2);
    expect(versionOf(after.timestamp)).to.equal(2);

    const later = new Date(Date.now() + EXPIRIES.timestamp * 1000 * 0.7);
    const refreshed = sign(after, [stable.target, beta.target, added.target], later);
    expect(versionOf(refreshed.timestamp), 'a timestamp near its expiry is signed again').to.equal(3);
    expect(refreshed.snapshot, 'the snapshot has time left').to.equal(after.snapshot);
    expect(refreshed.targets).to.equal(after.targets);
  });

  it('follows the published files: a new file is found after a refresh', async () => {
    const client = repository.client(rootV1);
    await client.refresh();
    const added = release('1.0.1', 'App.dmg', 'stable', 'a fix');
    repository.store([added]);
    repository.publish(sign(current(), [stable.target, beta.target, added.target]));
    const again = repository.client(rootV1);
    await again.refresh();
    const file = await again.downloadTarget((await again.getTargetInfo('1.0.1/App.dmg'))!);
    expect(fs.readFileSync(file)).to.deep.equal(added.bytes);
  });

  it('refuses a rollback of timestamp.json', async () => {
    const old = current();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tuf-client-'));
    const added = release('1.0.1', 'App.dmg', 'stable', 'a fix');
    repository.publish(sign(old, [stable.target, beta.target, added.target]));
    await repository.client(rootV1, dir).refresh();
    repository.publish(old);
    const error = await rejection(repository.client(rootV1, dir).refresh());
    expect(error.constructor.name).to.equal('BadVersionError');
    expect(error.message).to.match(/timestamp/i);
  });

  it('refuses a rollback of snapshot.json, even under a fresh timestamp', async () => {
    const old = current();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tuf-client-'));
    const added = release('1.0.1', 'App.dmg', 'stable', 'a fix');
    const newer = sign(old, [stable.target, beta.target, added.target]);
    repository.publish(newer);
    await repository.client(rootV1, dir).refresh();
    // Someone holding the timestamp key serves the old snapshot under a newer timestamp.
    const timestamp = new Timestamp({
      version: versionOf(newer.timestamp) + 1,
      expires: new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z'),
      specVersion: SPEC_VERSION,
      snapshotMeta: new MetaFile({ version: versionOf(old.snapshot), length: Buffer.byteLength(old.snapshot), hashes: { sha256: hash('sha256', old.snapshot, 'hex') } }),
    });
    const metadata = new Metadata(timestamp);
    metadata.sign(tufSigner(online.timestamp));
    repository.publish({ ...old, timestamp: JSON.stringify(metadata.toJSON()) });
    const error = await rejection(repository.client(rootV1, dir).refresh());
    expect(error.message).to.match(/snapshot/i);
    expect(error.constructor.name).to.equal('BadVersionError');
  });

  it('refuses expired metadata', async () => {
    const longAgo = new Date(Date.now() - 2 * EXPIRIES.timestamp * 1000);
    repository.publish(signRepository({ targets: [stable.target, beta.target], channels: CHANNELS, keys: online, expiries: EXPIRIES, now: longAgo }));
    const error = await rejection(repository.client(rootV1).refresh());
    expect(error.constructor.name).to.equal('ExpiredMetadataError');
    expect(error.message).to.match(/timestamp/i);
  });

  it('follows a root rotation signed by the old and the new root keys, and then trusts only the new keys', async () => {
    const newKeys = [generateTufKey()];
    const rootV2 = rotateRoot({
      previous: Metadata.fromJSON('root' as never, JSON.parse(rootV1)) as never,
      previousKeys: rootKeys, newKeys, threshold: 1, expiresInSeconds: ROOT_EXPIRY_SECONDS, now: new Date(),
    });
    expect(rootV2.signed.version).to.equal(2);
    repository.documents.set('2.root.json', JSON.stringify(rootV2.toJSON()));
    const client = repository.client(rootV1);
    await client.refresh();
    const file = await client.downloadTarget((await client.getTargetInfo('1.0.0/App.dmg'))!);
    expect(fs.readFileSync(file)).to.deep.equal(stable.bytes);
    expect(repository.requested).to.include.members(['/metadata/2.root.json', '/metadata/3.root.json']);

    // A third root signed with the retired keys only is refused by the client that followed the rotation.
    const rogue = signRoot(draftRoot({ version: 3, rootKeys, threshold: 2, online, expiresInSeconds: ROOT_EXPIRY_SECONDS, now: new Date() }), rootKeys);
    repository.documents.set('3.root.json', JSON.stringify(rogue.toJSON()));
    const fresh = repository.client(rootV1);
    const error = await rejection(fresh.refresh());
    expect(error.message).to.match(/root was signed by 0\/1 keys/);
  });

  it('checks an uploaded root: the next version, signed by its own and the previous root keys, naming the online keys', () => {
    const first = checkUploadedRoot(JSON.parse(rootV1), undefined, online);
    expect(first.signed.version).to.equal(1);
    const newKeys = [generateTufKey()];
    const rotated = rotateRoot({ previous: first, previousKeys: rootKeys, newKeys, threshold: 1, expiresInSeconds: ROOT_EXPIRY_SECONDS, now: new Date() });
    expect(checkUploadedRoot(rotated.toJSON(), first, online).signed.version).to.equal(2);

    expect(() => checkUploadedRoot(JSON.parse(rootV1), first, online)).to.throw(/version must be 2/);
    const unsignedByOld = signRoot(draftRoot({ version: 2, rootKeys: newKeys, threshold: 1, online, expiresInSeconds: ROOT_EXPIRY_SECONDS, now: new Date() }), newKeys);
    expect(() => checkUploadedRoot(unsignedByOld.toJSON(), first, online)).to.throw(/signatures do not verify/);
    const halfSigned = signRoot(draftRoot({ version: 1, rootKeys, threshold: 2, online, expiresInSeconds: ROOT_EXPIRY_SECONDS, now: new Date() }), [rootKeys[0]]);
    expect(() => checkUploadedRoot(halfSigned.toJSON(), undefined, online)).to.throw(/signatures do not verify/);
    const foreign = { ...online, timestamp: generateTufKey() };
    const wrongOnline = signRoot(draftRoot({ version: 1, rootKeys, threshold: 2, online: foreign, expiresInSeconds: ROOT_EXPIRY_SECONDS, now: new Date() }), rootKeys);
    expect(() => checkUploadedRoot(wrongOnline.toJSON(), undefined, online)).to.throw(/online timestamp key/);
    expect(() => checkUploadedRoot({ signed: { _type: 'root' } }, undefined, online)).to.throw(/not a TUF root/);
  });

  it('verifies under securesystemslib (a second implementation): key ids, canonical JSON and every signature', () => {
    const metadata = current();
    const input = JSON.stringify({ root: JSON.parse(rootV1), targets: JSON.parse(metadata.targets), snapshot: JSON.parse(metadata.snapshot), timestamp: JSON.parse(metadata.timestamp), channels: Object.fromEntries(Object.entries(metadata.channels).map(([k, v]) => [k, JSON.parse(v)])) });
    const output = execFileSync('/usr/bin/python3', ['-c', SECURESYSTEMSLIB_CHECK], { input }).toString();
    expect(output.trim()).to.equal('verified root targets snapshot timestamp stable beta');

    const forged = JSON.parse(input) as { snapshot: { signed: { version: number } } };
    forged.snapshot.signed.version += 1;
    let failed = false;
    try {
      execFileSync('/usr/bin/python3', ['-c', SECURESYSTEMSLIB_CHECK], { input: JSON.stringify(forged), stdio: 'pipe' });
    } catch (error) {
      failed = true;
      expect(String((error as { stderr: Buffer }).stderr)).to.match(/snapshot: signature/);
    }
    expect(failed, 'a changed snapshot does not verify').to.equal(true);
  });
});

/** Checks each document's signatures with securesystemslib against the keys its delegating role names. */
const SECURESYSTEMSLIB_CHECK = `
import hashlib, json, sys
import securesystemslib.formats as formats
import securesystemslib.keys as keys

docs = json.load(sys.stdin)

def check(name, document, key_map, role):
    trusted = {}
    for keyid, meta in key_map.items():
        key, _ = keys.format_metadata_to_key(meta, default_keyid=keyid)
        # The key id of the specification: SHA-256 over the key object's canonical JSON as listed.
        listed = {'keytype': meta['keytype'], 'scheme': meta['scheme'], 'keyval': {'public': meta['keyval']['public']}}
        if hashlib.sha256(formats.encode_canonical(listed).encode('utf-8')).hexdigest() != keyid:
            sys.exit(name + ': key id ' + keyid + ' is not the key\\'s')
        trusted[keyid] = key
    data = formats.encode_canonical(document['signed']).encode('utf-8')
    good = 0
    for signature in document['signatures']:
        key = trusted.get(signature['keyid'])
        if key and signature['keyid'] in role['keyids'] and keys.verify_signature(key, signature, data):
            good += 1
    if good < role['threshold']:
        sys.exit(name + ': signature threshold not met')

root = docs['root']
check('root', root, root['signed']['keys'], root['signed']['roles']['root'])
for name in ('targets', 'snapshot', 'timestamp'):
    check(name, docs[name], root['signed']['keys'], root['signed']['roles'][name])
delegations = docs['targets']['signed']['delegations']
names = []
for role in delegations['roles']:
    check(role['name'], docs['channels'][role['name']], delegations['keys'], role)
    names.append(role['name'])
print('verified root targets snapshot timestamp ' + ' '.join(names))
`;
