import path from 'node:path';
import type { Config } from '../config';
import { loadSigningKey } from '../runtime/local-secrets';
import { LocalStorage } from './local/local-storage';
import { UrlSigner } from './local/url-signer';
import type { ObjectStorage } from './object-storage';
import type { SignedObjectAccess } from './signed-object-access';

/** The object store the configuration names, with what the gateway needs to serve for it. */
export interface ConfiguredObjectStorage {
  storage: ObjectStorage;
  /** Present when the store's signed URLs point at the gateway (the embedded store); S3 answers its own. */
  signedAccess?: SignedObjectAccess;
}

/** S3 when S3_ENDPOINT or S3_BUCKET is set; otherwise files under DATA_DIR/objects, served by the gateway. */
export function createObjectStorage(config: Config): ConfiguredObjectStorage {
  if (config.s3) {
    // Loaded only when used: the AWS SDK adds about a second to every start of the embedded default.
    const { S3Storage } = require('./s3/s3-storage') as typeof import('./s3/s3-storage');
    return { storage: new S3Storage(config.s3) };
  }
  const signer = new UrlSigner(loadSigningKey(config.dataDir));
  const storage = new LocalStorage(path.join(config.dataDir, 'objects'), config.publicBaseUrl, signer);
  return { storage, signedAccess: storage.signedAccess() };
}
