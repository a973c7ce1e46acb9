import path from 'node:path';
import type { Config } from '../config';
import { loadSigningKey } from '../runtime/local-secrets';
import { LocalStorage } from './local/local-storage';
import { UrlSigner } from './local/url-signer';
import type { ObjectStorage } from './object-storage';
import { S3Storage } from './s3/s3-storage';

/** S3 when S3_ENDPOINT or S3_BUCKET is set; otherwise files under DATA_DIR/objects. */
export function createObjectStorage(config: Config): ObjectStorage {
  if (config.s3) return new S3Storage(config.s3);
  const signer = new UrlSigner(loadSigningKey(config.dataDir));
  return new LocalStorage(path.join(config.dataDir, 'objects'), config.publicBaseUrl, signer);
}
