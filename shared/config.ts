import type { S3Config } from './storage/s3/s3-config';
import fs from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { sniffImageType } from './image-type';
import { defaultHashingThreads } from './hashing-threads/hashing-threads';
import {
  CHECK_EVENT_RETENTION_DEFAULT_DAYS,
  LOGO_MAX_BYTES,
  VENDOR_NAME_MAX_LENGTH,
  CHECK_EVENT_RETENTION_MAX_DAYS,
  RELEASE_PURGE_AFTER_DEFAULT_DAYS,
  RELEASE_PURGE_AFTER_MAX_DAYS,
  TUF_TIMESTAMP_EXPIRY_DEFAULT_SECONDS,
  TUF_TIMESTAMP_EXPIRY_MAX_SECONDS,
  TUF_TIMESTAMP_EXPIRY_MIN_SECONDS,
  UPDATE_ARRIVAL_WINDOW_DEFAULT_HOURS,
  UPDATE_ARRIVAL_WINDOW_MAX_HOURS,
  UPDATE_ARRIVAL_WINDOW_MIN_HOURS,
  MULTIPART_UPLOAD_DEFAULT_TTL_SECONDS,
  MULTIPART_UPLOAD_MAX_TTL_SECONDS,
  PRESIGNED_URL_MAX_SECONDS,
  UPLOAD_URL_DEFAULT_TTL_SECONDS,
  WEBHOOK_RETRY_BASE_DEFAULT_MS,
} from './policy';
import { readRateLimits, RateLimits } from './rate-limit-policies';
import { channelNameProblem, DEFAULT_CHANNELS } from './releases/channels';

/** Typed, frozen configuration. Nothing outside this module reads process.env. */

export type { S3Config };

export interface Config {
  port: number;
  /** Address the gateway (and the worker's metrics listener) binds: loopback unless told otherwise. */
  host: string;
  publicBaseUrl: string;
  /** Admin keys given through ADMIN_API_KEYS; empty means "generate one in DATA_DIR" (embedded default). */
  adminApiKeys: readonly string[];
  dataDir: string;
  mongodbUri: string | undefined;
  redisUrl: string | undefined;
  s3: S3Config | undefined;
  tiers: readonly string[];
  /** Release channels, most stable first; a client asking for one sees it and every more stable one. */
  channels: readonly string[];
  trustProxy: boolean;
  logLevel: string;
  /** LOG_FORMAT; unset, the logger picks pretty on a terminal and JSON otherwise (shared/logger.ts). */
  logFormat: 'pretty' | 'json' | undefined;
  /** Prefix of every Redis key and BullMQ queue, so several deployments can share one Redis. */
  redisPrefix: string;
  shutdownTimeoutMs: number;
  /** Lifetime of a large-upload session and its pre-signed PUT URL. */
  uploadUrlTtlSeconds: number;
  /** Lifetime of a multipart upload session; the expiry sweep aborts what is left of it then. */
  multipartUploadTtlSeconds: number;
  /** Gateway processes sharing the port (node:cluster); 1 serves from the process itself. */
  webConcurrency: number;
  /** The bearer token of GET /metrics; unset, no process serves metrics. */
  metricsToken: string | undefined;
  /** Port of the worker process's own metrics listener (the gateway serves /metrics on its port). */
  metricsPort: number;
  /** Days raw update-check events are kept once rolled up (CHECK_EVENT_RETENTION_DAYS); the adoption counters stay. */
  checkEventRetentionDays: number;
  /** Hours after an offer within which an install must check in running the release, else it is stuck (UPDATE_ARRIVAL_WINDOW). */
  updateArrivalWindowHours: number;
  /** Days a soft-deleted application's published bytes are kept before they may be purged (RELEASE_PURGE_AFTER_DAYS). */
  releasePurgeAfterDays: number;
  /** Seconds a signed TUF `timestamp.json` is valid (TUF_TIMESTAMP_EXPIRY); it is signed again before then. */
  tufTimestampExpirySeconds: number;
  /**
   * The Sigstore trusted root (SIGSTORE_TRUSTED_ROOT: a trusted_root.json file, read at start) that
   * Sigstore bundles of attestations are verified against, offline; null: they are kept unverified.
   */
  sigstoreTrustedRoot: Readonly<Record<string, unknown>> | null;
  /** false (RECORD_UPDATE_CHECKS=false): update checks are answered without recording a check event (no adoption figures). */
  recordUpdateChecks: boolean;
  /** Who distributes here, as the portal's sign-in and the share-link pages name them: VENDOR_NAME and VENDOR_LOGO (a checked image file's path); null when unset. */
  vendor: { name: string | null; logoFile: string | null };
  /** Threads computing file digests (shared/hashing-threads); 0 computes them on the event loop. */
  hashingThreads: number;
  webhooks: WebhookConfig;
  /** REPOSITORY_KEY_SECRET: 64 hex digits sealing the package repositories' private signing keys; unset on the embedded default (generated into DATA_DIR). */
  repositoryKeySecretHex: string | undefined;
  /** Requests per window by rate-limit policy (shared/rate-limit-policies.ts); null: RATE_LIMITS=off. */
  rateLimits: RateLimits | null;
}

export interface WebhookConfig {
  /** Hosts (names or IP addresses, lowercase) that webhooks may reach over http and at private, loopback or link-local addresses. */
  allowedHosts: readonly string[];
  /** First retry delay of a delivery; each later one doubles. */
  retryBaseMs: number;
  /** 64 hex digits: the key that encrypts signing secrets at rest. Unset: one generated into DATA_DIR (embedded default). */
  secretKeyHex: string | undefined;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_TIERS = ['free', 'standard', 'premium', 'enterprise'];
export const MIN_ADMIN_KEY_LENGTH = 32;
export const MIN_METRICS_TOKEN_LENGTH = 32;
/** The port Prometheus exporters commonly use. */
export const DEFAULT_METRICS_PORT = 9464;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

type Env = Record<string, string | undefined>;

/** Reads and validates the environment; throws one ConfigError listing every invalid variable. */
export function loadConfig(env: Env = process.env): Readonly<Config> {
  const problems: string[] = [];
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };

  const port = parseInteger(read('PORT'), 3000, 0, 65535, 'PORT', problems);
  // Loopback by default: a reverse proxy or a container's HOST=0.0.0.0 opens it to the network on purpose.
  const host = read('HOST') ?? DEFAULT_HOST;
  if (isIP(host.replace(/^\[(.*)\]$/, '$1')) === 0 && !/^(?=.{1,253}$)[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/i.test(host)) {
    problems.push('HOST must be an IP address (0.0.0.0 or :: for every interface) or a host name');
  }

  let publicBaseUrl = read('PUBLIC_BASE_URL') ?? `http://localhost:${port}`;
  if (!isHttpUrl(publicBaseUrl)) problems.push('PUBLIC_BASE_URL must be an http(s) URL');
  publicBaseUrl = publicBaseUrl.replace(/\/+$/, '');

  const adminApiKeys = (read('ADMIN_API_KEYS') ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');
  adminApiKeys.forEach((key, index) => {
    if (key.length < MIN_ADMIN_KEY_LENGTH) {
      problems.push(`ADMIN_API_KEYS entry ${index + 1} is shorter than ${MIN_ADMIN_KEY_LENGTH} characters`);
    }
  });

  const dataDir = path.resolve(read('DATA_DIR') ?? './data');

  const mongodbUri = read('MONGODB_URI');
  if (mongodbUri !== undefined && !/^mongodb(\+srv)?:\/\//.test(mongodbUri)) {
    problems.push('MONGODB_URI must start with mongodb:// or mongodb+srv://');
  }
  // Several gateway processes cannot share a key generated into one machine's DATA_DIR.
  if (mongodbUri !== undefined && adminApiKeys.length === 0) {
    problems.push('ADMIN_API_KEYS is required when MONGODB_URI is set');
  }

  const redisUrl = read('REDIS_URL');
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) {
    problems.push('REDIS_URL must start with redis:// or rediss://');
  }

  const s3 = readS3Config(read, problems);

  const tiers = (read('TIERS') ?? DEFAULT_TIERS.join(','))
    .split(',')
    .map((t) => t.trim());
  if (tiers.some((t) => !/^[a-z0-9_-]{1,32}$/.test(t))) {
    problems.push('TIERS must be a comma-separated list of lowercase names (a-z, 0-9, _ and -)');
  } else if (new Set(tiers).size !== tiers.length) {
    problems.push('TIERS must not repeat a tier');
  }

  const channels = (read('CHANNELS') ?? DEFAULT_CHANNELS.join(','))
    .split(',')
    .map((c) => c.trim());
  const badChannels = channels
    .map((channel) => [channel, channelNameProblem(channel)] as const)
    .filter(([, problem]) => problem !== null)
    .map(([channel, problem]) => `"${channel}" ${problem}`);
  if (badChannels.length > 0) {
    problems.push(`CHANNELS must be a comma-separated list of channel names, most stable first: ${badChannels.join('; ')}`);
  } else if (new Set(channels).size !== channels.length) {
    problems.push('CHANNELS must not repeat a channel');
  }

  const trustProxy = parseBoolean(read('TRUST_PROXY'), 'TRUST_PROXY', problems);

  const logLevel = read('LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const logFormat = read('LOG_FORMAT')?.toLowerCase();
  if (logFormat !== undefined && logFormat !== 'pretty' && logFormat !== 'json') problems.push('LOG_FORMAT must be pretty or json');

  const redisPrefix = read('REDIS_PREFIX') ?? 'bds';
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(redisPrefix)) problems.push('REDIS_PREFIX must be 1-40 characters of A-Z, a-z, 0-9, _ and -');

  const shutdownTimeoutMs = parseInteger(read('SHUTDOWN_TIMEOUT_MS'), 25_000, 1_000, 25_000, 'SHUTDOWN_TIMEOUT_MS', problems);

  const uploadUrlTtlSeconds = parseInteger(read('UPLOAD_URL_TTL_SECONDS'), UPLOAD_URL_DEFAULT_TTL_SECONDS, 1, PRESIGNED_URL_MAX_SECONDS, 'UPLOAD_URL_TTL_SECONDS', problems);

  const multipartUploadTtlSeconds = parseInteger(read('MULTIPART_UPLOAD_TTL_SECONDS'), MULTIPART_UPLOAD_DEFAULT_TTL_SECONDS, 1,
    MULTIPART_UPLOAD_MAX_TTL_SECONDS, 'MULTIPART_UPLOAD_TTL_SECONDS', problems);

  const webConcurrency = parseInteger(read('WEB_CONCURRENCY'), 1, 1, 64, 'WEB_CONCURRENCY', problems);
  const hashingThreads = parseInteger(read('HASHING_THREADS'), defaultHashingThreads(), 0, 64, 'HASHING_THREADS', problems);

  const webhooks = readWebhookConfig(read, mongodbUri !== undefined, problems);
  const rateLimits = readRateLimits(read('RATE_LIMITS'), tiers, problems);
  const repositoryKeySecretHex = read('REPOSITORY_KEY_SECRET')?.toLowerCase();
  if (repositoryKeySecretHex !== undefined && !/^[0-9a-f]{64}$/.test(repositoryKeySecretHex)) problems.push('REPOSITORY_KEY_SECRET must be 64 hex digits (32 bytes)');
  // Every gateway must open the keys any other one sealed: a key generated into one machine's DATA_DIR cannot do.
  if (mongodbUri !== undefined && repositoryKeySecretHex === undefined) problems.push('REPOSITORY_KEY_SECRET is required when MONGODB_URI is set');

  const metricsToken = read('METRICS_TOKEN');
  // Sent as a bearer credential: printable ASCII without spaces, at most 512 characters (guards).
  if (metricsToken !== undefined && !new RegExp(`^[\\x21-\\x7e]{${MIN_METRICS_TOKEN_LENGTH},512}$`).test(metricsToken)) {
    problems.push(`METRICS_TOKEN must be ${MIN_METRICS_TOKEN_LENGTH} to 512 printable characters without spaces`);
  }
  const metricsPort = parseInteger(read('METRICS_PORT'), DEFAULT_METRICS_PORT, 0, 65535, 'METRICS_PORT', problems);
  const recordUpdateChecks = parseBoolean(read('RECORD_UPDATE_CHECKS') ?? 'true', 'RECORD_UPDATE_CHECKS', problems);
  const checkEventRetentionDays = parseInteger(read('CHECK_EVENT_RETENTION_DAYS'), CHECK_EVENT_RETENTION_DEFAULT_DAYS, 1,
    CHECK_EVENT_RETENTION_MAX_DAYS, 'CHECK_EVENT_RETENTION_DAYS', problems);
  const updateArrivalWindowHours = parseInteger(read('UPDATE_ARRIVAL_WINDOW'), UPDATE_ARRIVAL_WINDOW_DEFAULT_HOURS,
    UPDATE_ARRIVAL_WINDOW_MIN_HOURS, UPDATE_ARRIVAL_WINDOW_MAX_HOURS, 'UPDATE_ARRIVAL_WINDOW', problems);
  const releasePurgeAfterDays = parseInteger(read('RELEASE_PURGE_AFTER_DAYS'), RELEASE_PURGE_AFTER_DEFAULT_DAYS, 0,
    RELEASE_PURGE_AFTER_MAX_DAYS, 'RELEASE_PURGE_AFTER_DAYS', problems);
  const tufTimestampExpirySeconds = parseInteger(read('TUF_TIMESTAMP_EXPIRY'), TUF_TIMESTAMP_EXPIRY_DEFAULT_SECONDS,
    TUF_TIMESTAMP_EXPIRY_MIN_SECONDS, TUF_TIMESTAMP_EXPIRY_MAX_SECONDS, 'TUF_TIMESTAMP_EXPIRY', problems);

  const vendor = readVendor(read, problems);
  const sigstoreTrustedRoot = readTrustedRoot(read('SIGSTORE_TRUSTED_ROOT'), problems);

  if (problems.length > 0) throw new ConfigError(problems);

  return Object.freeze({
    port,
    host: host.replace(/^\[(.*)\]$/, '$1'),
    publicBaseUrl,
    adminApiKeys: Object.freeze(adminApiKeys),
    dataDir,
    mongodbUri,
    redisUrl,
    s3,
    tiers: Object.freeze(tiers),
    channels: Object.freeze(channels),
    trustProxy,
    logLevel,
    logFormat: logFormat as Config['logFormat'],
    redisPrefix,
    shutdownTimeoutMs,
    uploadUrlTtlSeconds,
    multipartUploadTtlSeconds,
    webConcurrency,
    hashingThreads,
    webhooks: Object.freeze(webhooks),
    repositoryKeySecretHex,
    rateLimits,
    metricsToken,
    metricsPort,
    checkEventRetentionDays,
    updateArrivalWindowHours,
    releasePurgeAfterDays,
    tufTimestampExpirySeconds,
    sigstoreTrustedRoot,
    recordUpdateChecks,
    vendor: Object.freeze(vendor),
  });
}

/** VENDOR_NAME, one line of at most VENDOR_NAME_MAX_LENGTH characters; VENDOR_LOGO, a PNG, JPEG or WebP file of at most LOGO_MAX_BYTES. */
function readVendor(read: (name: string) => string | undefined, problems: string[]): Config['vendor'] {
  const name = read('VENDOR_NAME')?.trim() || null;
  // eslint-disable-next-line no-control-regex
  if (name !== null && (name.length > VENDOR_NAME_MAX_LENGTH || /[\u0000-\u001f\u007f]/.test(name))) {
    problems.push(`VENDOR_NAME must be one line of at most ${VENDOR_NAME_MAX_LENGTH} characters`);
  }
  const logoFile = read('VENDOR_LOGO') ? path.resolve(read('VENDOR_LOGO') as string) : null;
  if (logoFile !== null) {
    let bytes: Buffer | undefined;
    try {
      bytes = fs.readFileSync(logoFile);
    } catch (error) {
      problems.push(`VENDOR_LOGO cannot be read: ${(error as Error).message}`);
    }
    if (bytes && (bytes.length > LOGO_MAX_BYTES || sniffImageType(bytes) === null)) {
      problems.push(`VENDOR_LOGO must be a PNG, JPEG or WebP file of at most ${LOGO_MAX_BYTES} bytes`);
    }
  }
  return { name, logoFile };
}

/** A Sigstore trusted root file: a JSON object with its lists of authorities (checked in full when a bundle is verified). */
function readTrustedRoot(file: string | undefined, problems: string[]): Readonly<Record<string, unknown>> | null {
  if (file === undefined) return null;
  try {
    const root = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
    if (typeof root === 'object' && root !== null && !Array.isArray(root) && typeof (root as { mediaType?: unknown }).mediaType === 'string') {
      return Object.freeze(root as Record<string, unknown>);
    }
    problems.push('SIGSTORE_TRUSTED_ROOT must name a Sigstore trusted root JSON file (with its mediaType)');
  } catch {
    problems.push('SIGSTORE_TRUSTED_ROOT must name a readable Sigstore trusted root JSON file');
  }
  return null;
}

function readWebhookConfig(read: (name: string) => string | undefined, sharedStore: boolean, problems: string[]): WebhookConfig {
  const allowedHosts = (read('WEBHOOK_ALLOWED_HOSTS') ?? '')
    .split(',')
    .map((host) => host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1'))
    .filter((host) => host !== '');
  if (allowedHosts.some((host) => !/^[a-z0-9.:-]{1,253}$/.test(host))) {
    problems.push('WEBHOOK_ALLOWED_HOSTS must be a comma-separated list of host names or IP addresses');
  }
  const retryBaseMs = parseInteger(read('WEBHOOK_RETRY_BASE_MS'), WEBHOOK_RETRY_BASE_DEFAULT_MS, 1, 3_600_000, 'WEBHOOK_RETRY_BASE_MS', problems);
  const secretKeyHex = read('WEBHOOK_SECRET_KEY')?.toLowerCase();
  if (secretKeyHex !== undefined && !/^[0-9a-f]{64}$/.test(secretKeyHex)) problems.push('WEBHOOK_SECRET_KEY must be 64 hex digits (32 bytes)');
  // Every process must open the secrets every other one sealed: a key generated into one machine's DATA_DIR cannot do.
  if (sharedStore && secretKeyHex === undefined) problems.push('WEBHOOK_SECRET_KEY is required when MONGODB_URI is set');
  return { allowedHosts: Object.freeze(allowedHosts), retryBaseMs, secretKeyHex };
}

function readS3Config(read: (name: string) => string | undefined, problems: string[]): S3Config | undefined {
  const endpoint = read('S3_ENDPOINT');
  const bucket = read('S3_BUCKET');
  if (endpoint === undefined && bucket === undefined) return undefined;
  if (endpoint !== undefined && !isHttpUrl(endpoint)) problems.push('S3_ENDPOINT must be an http(s) URL');
  if (bucket === undefined) problems.push('S3_BUCKET is required when S3_ENDPOINT is set');
  else if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) problems.push('S3_BUCKET is not a valid bucket name');
  const accessKeyId = read('S3_ACCESS_KEY_ID');
  const secretAccessKey = read('S3_SECRET_ACCESS_KEY');
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
  }
  const forcePathStyle = read('S3_FORCE_PATH_STYLE') === undefined
    ? endpoint !== undefined
    : parseBoolean(read('S3_FORCE_PATH_STYLE'), 'S3_FORCE_PATH_STYLE', problems);
  return {
    endpoint,
    bucket: bucket ?? '',
    region: read('S3_REGION') ?? 'us-east-1',
    accessKeyId,
    secretAccessKey,
    forcePathStyle,
  };
}

function parseInteger(raw: string | undefined, fallback: number, min: number, max: number, name: string, problems: string[]): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    problems.push(`${name} must be an integer from ${min} to ${max}`);
    return fallback;
  }
  return Number(raw);
}

function parseBoolean(raw: string | undefined, name: string, problems: string[]): boolean {
  if (raw === undefined) return false;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  problems.push(`${name} must be true or false`);
  return false;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
