import { S3Client } from '@aws-sdk/client-s3';
import type { S3Config } from './s3-config';

/** The S3 client for a configured bucket, with the options every use of it needs. */
export function createS3Client(config: S3Config): S3Client {
  return new S3Client({
    endpoint: config.endpoint,
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    // Without explicit keys the SDK's default chain applies (environment, profile, instance role).
    credentials: config.accessKeyId !== undefined && config.secretAccessKey !== undefined
      ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
      : undefined,
    // Otherwise the SDK signs the checksum of an empty body into pre-signed PUT URLs, which S3 and MinIO
    // then refuse for any real upload.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}
