import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { BuildFile, BuildReader, DigestAlgorithm, SignatureVerifier } from '../../shared/publishing';
import { createPrehash, MinisignFormatError, parsePublicKey, parseSignature, verificationProblem } from '../../shared/signing/minisign';
import { challengeSeed, parseSparklePublicKey, sparkleSignatureOf, verifiesWithChallenge } from '../../shared/signing/sparkle';
import { UsageError } from '../errors';

/** Every regular file under `root`, with its path relative to it (`/` between segments); symbolic links are not followed. */
export function listBuildFiles(root: string): BuildFile[] {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(root);
  } catch (error) {
    throw new UsageError(`cannot read ${root}: ${(error as Error).message}`);
  }
  if (!stat.isDirectory()) throw new UsageError(`${root} is not a directory: give the folder the build tool wrote`);
  const files: BuildFile[] = [];
  for (const entry of fs.readdirSync(root, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const absolute = path.join(entry.parentPath, entry.name);
    files.push({ path: path.relative(root, absolute).split(path.sep).join('/'), size: fs.statSync(absolute).size });
  }
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

const NODE_ALGORITHMS: Record<DigestAlgorithm, string> = { 'SHA-1': 'sha1', 'SHA-512': 'sha512' };

async function streamDigest(file: string, hash: ReturnType<typeof createHash>): Promise<Buffer> {
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest();
}

/** Reads the directory's files for the recogniser; each digest is computed once. */
export function localReader(root: string): BuildReader & { sha256(relative: string): Promise<string> } {
  const digests = new Map<string, Promise<Buffer>>();
  const digest = (relative: string, algorithm: string) => {
    const key = `${algorithm}:${relative}`;
    let found = digests.get(key);
    if (!found) digests.set(key, (found = streamDigest(path.join(root, relative), createHash(algorithm))));
    return found;
  };
  return {
    text: (relative) => fs.promises.readFile(path.join(root, relative), 'utf8'),
    digest: async (relative, algorithm) => new Uint8Array(await digest(relative, NODE_ALGORITHMS[algorithm])),
    sha256: async (relative) => (await digest(relative, 'sha256')).toString('hex'),
  };
}

/**
 * Signatures checked here before anything is sent, as the service checks them on upload: Tauri's
 * minisign (prehashed: Ed25519 over the file's BLAKE2b-512) and Sparkle's Ed25519 over the archive,
 * its challenge streamed so an archive is never held in memory.
 */
export function localVerifier(root: string): SignatureVerifier {
  return async (check) => {
    const signed = path.join(root, check.signedPath);
    if (check.kind === 'minisign') {
      try {
        const signature = parseSignature(check.text);
        const prehash = await streamDigest(signed, createPrehash());
        return verificationProblem(parsePublicKey(check.publicKey), signature, prehash);
      } catch (error) {
        if (error instanceof MinisignFormatError) return error.message;
        throw error;
      }
    }
    const signature = sparkleSignatureOf(check.text);
    if (!signature) return 'it is not base64 of a 64-byte Ed25519 signature';
    let publicKey: Buffer;
    try {
      publicKey = parseSparklePublicKey(check.publicKey);
    } catch (error) {
      return (error as Error).message;
    }
    const hash = createHash('sha512').update(challengeSeed(signature, publicKey));
    const challenge = await streamDigest(signed, hash);
    return verifiesWithChallenge(publicKey, signature, challenge) ? null : 'the Ed25519 signature does not match the archive';
  };
}
