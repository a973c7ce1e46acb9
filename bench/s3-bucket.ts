import { loadConfig } from '../shared/config';
import { S3Storage } from '../shared/storage/s3/s3-storage';

/**
 * Creates the bucket named by the S3_* variables when it does not exist yet: the service expects an
 * existing bucket, as an operator would provision it before the first start.
 */
export async function ensureBucket(s3Environment: Record<string, string>): Promise<void> {
  const { s3 } = loadConfig(s3Environment);
  if (!s3) throw new Error('S3_ENDPOINT or S3_BUCKET is required');
  const storage = new S3Storage(s3);
  try {
    await storage.ensureBucket();
  } finally {
    await storage.close();
  }
}
