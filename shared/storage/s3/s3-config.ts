/** Where and how the S3 adapter reaches its bucket (read from the environment by shared/config.ts). */
export interface S3Config {
  endpoint: string | undefined;
  bucket: string;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
}
