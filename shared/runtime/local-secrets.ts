import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { hashSecret } from '../secrets';

/**
 * Secrets the embedded default keeps in DATA_DIR. The admin key itself is never written: only its
 * SHA-256, so a copy of DATA_DIR does not hand out admin access.
 */
export const ADMIN_KEY_HASH_FILE = 'admin-api-key.sha256';
const SIGNING_KEY_FILE = 'object-url-signing.key';

export interface AdminKeyResolution {
  hashes: string[];
  /** Set only on the start that generated the key: the one time it can be shown. */
  generatedKey?: string;
}

/** Admin key hashes: from ADMIN_API_KEYS, else the generated key of DATA_DIR (generated on first start). */
export function resolveAdminKeys(configured: readonly string[], dataDir: string): AdminKeyResolution {
  if (configured.length > 0) return { hashes: configured.map(hashSecret) };
  const file = path.join(dataDir, ADMIN_KEY_HASH_FILE);
  const stored = readIfExists(file)?.trim();
  if (stored && /^[0-9a-f]{64}$/.test(stored)) return { hashes: [stored] };
  const key = `adm_${randomBytes(32).toString('base64url')}`;
  writeSecret(file, `${hashSecret(key)}\n`);
  return { hashes: [hashSecret(key)], generatedKey: key };
}

/** Key of the HMAC that signs the embedded object store's URLs; shared by every process on the machine. */
export function loadSigningKey(dataDir: string): Buffer {
  const file = path.join(dataDir, SIGNING_KEY_FILE);
  const stored = readIfExists(file)?.trim();
  if (stored && /^[0-9a-f]{64}$/.test(stored)) return Buffer.from(stored, 'hex');
  const key = randomBytes(32);
  try {
    // 'wx' fails when another process wrote the file first; then that process's key wins.
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return Buffer.from((readIfExists(file) ?? '').trim(), 'hex');
  }
}

function readIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function writeSecret(file: string, content: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content, { mode: 0o600 });
}
