import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleToJSON, toDSSEBundle } from '@sigstore/bundle';

export const IN_TOTO = 'application/vnd.in-toto+json';

/** A key pair as a vendor's CI holds one: Ed25519 or ECDSA P-256. */
export interface SigningKey {
  privateKey: crypto.KeyObject;
  publicKeyPem: string;
  algorithm: 'ed25519' | 'ecdsa-p256';
}

export function signingKey(algorithm: 'ed25519' | 'ecdsa-p256'): SigningKey {
  const pair = algorithm === 'ed25519' ? crypto.generateKeyPairSync('ed25519') : crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { privateKey: pair.privateKey, publicKeyPem: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(), algorithm };
}

/** DSSE's pre-authentication encoding, written from the specification. */
function pae(payloadType: string, payload: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`DSSEv1 ${Buffer.byteLength(payloadType)} ${payloadType} ${payload.length} `), payload]);
}

export function sign(key: SigningKey, message: Buffer): Buffer {
  return crypto.sign(key.algorithm === 'ed25519' ? null : 'sha256', message, key.privateKey);
}

/** A SLSA v1 provenance statement about bytes with these digests, as GitHub Actions writes one. */
export function slsaV1Statement(digest: Record<string, string>, build: { builderId: string; repository: string; commit: string }): Record<string, unknown> {
  return {
    _type: 'https://in-toto.io/Statement/v1',
    subject: [{ name: 'setup.exe', digest }],
    predicateType: 'https://slsa.dev/provenance/v1',
    predicate: {
      buildDefinition: {
        buildType: 'https://actions.github.io/buildtypes/workflow/v1',
        externalParameters: { workflow: { ref: 'refs/heads/main', repository: build.repository, path: '.github/workflows/release.yml' } },
        resolvedDependencies: [{ uri: `git+${build.repository}@refs/heads/main`, digest: { gitCommit: build.commit } }],
      },
      runDetails: { builder: { id: build.builderId }, metadata: { invocationId: 'https://example.com/runs/1' } },
    },
  };
}

/** A SLSA v0.2 provenance statement. */
export function slsaV02Statement(digest: Record<string, string>, build: { builderId: string; repository: string; commit: string }): Record<string, unknown> {
  return {
    _type: 'https://in-toto.io/Statement/v0.1',
    subject: [{ name: 'setup.exe', digest }],
    predicateType: 'https://slsa.dev/provenance/v0.2',
    predicate: {
      builder: { id: build.builderId },
      buildType: 'https://github.com/slsa-framework/slsa-github-generator/generic@v1',
      invocation: { configSource: { uri: `git+${build.repository}@refs/heads/main`, digest: { sha1: build.commit }, entryPoint: '.github/workflows/release.yml' } },
      materials: [{ uri: `git+${build.repository}@refs/heads/main`, digest: { sha1: build.commit } }],
    },
  };
}

/** A DSSE envelope of a statement, signed by each key (with its keyid when given). */
export function dsseEnvelope(statement: unknown, signers: readonly { key: SigningKey; keyid?: string }[], payloadType = IN_TOTO) {
  const payload = Buffer.from(JSON.stringify(statement));
  return {
    payloadType,
    payload: payload.toString('base64'),
    signatures: signers.map(({ key, keyid }) => ({ ...(keyid !== undefined ? { keyid } : {}), sig: sign(key, pae(payloadType, payload)).toString('base64') })),
  };
}

/**
 * A Sigstore bundle (v0.3) of a statement signed with a key, made by @sigstore/bundle as sigstore-js
 * makes key-signed bundles: a DSSE envelope, the key named by a public-key hint.
 */
export function sigstoreBundle(statement: unknown, key: SigningKey, keyHint: string): Record<string, unknown> {
  const artifact = Buffer.from(JSON.stringify(statement));
  const bundle = toDSSEBundle({ artifact, artifactType: IN_TOTO, signature: sign(key, pae(IN_TOTO, artifact)), keyHint });
  return bundleToJSON(bundle) as unknown as Record<string, unknown>;
}

/** A Sigstore trusted root file with no authorities: key-signed bundles need none, and nothing else passes. */
export function trustedRootFile(): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bds-trust-')), 'trusted_root.json');
  fs.writeFileSync(file, JSON.stringify({
    mediaType: 'application/vnd.dev.sigstore.trustedroot+json;version=0.1',
    tlogs: [], certificateAuthorities: [], ctlogs: [], timestampAuthorities: [],
  }));
  return file;
}
