import { loadConfig } from '../shared/config';
import { createBucket } from '../test/support/s3-bucket';

/** Creates the bucket named by the S3_* variables when it does not exist yet, as an operator would before the first start. */
export async function ensureBucket(s3Environment: Record<string, string>): Promise<void> {
  const { s3 } = loadConfig(s3Environment);
  if (!s3) throw new Error('S3_ENDPOINT or S3_BUCKET is required');
  await createBucket(s3);
}
