import { BucketAlreadyOwnedByYou, BucketLocationConstraint, CreateBucketCommand, HeadBucketCommand, NotFound } from '@aws-sdk/client-s3';
import type { S3Config } from '../../shared/config';
import { createS3Client } from '../../shared/storage/s3/s3-client';

/**
 * Creates the configured bucket when it does not exist yet; safe to call from several processes at
 * once. The service expects an existing bucket, as an operator provisions it; tests and the bench
 * provision their own.
 */
export async function createBucket(config: S3Config): Promise<void> {
  const client = createS3Client(config);
  try {
    try {
      await client.send(new HeadBucketCommand({ Bucket: config.bucket }));
      return;
    } catch (error) {
      if (!(error instanceof NotFound)) throw error;
    }
    await client.send(new CreateBucketCommand({
      Bucket: config.bucket,
      // us-east-1 is the one region S3 refuses to be named explicitly.
      CreateBucketConfiguration: config.region === 'us-east-1' ? undefined : { LocationConstraint: config.region as BucketLocationConstraint },
    })).catch((error: unknown) => {
      if (!(error instanceof BucketAlreadyOwnedByYou)) throw error;
    });
  } finally {
    client.destroy();
  }
}
