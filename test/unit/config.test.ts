import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RELEASE_PURGE_AFTER_DEFAULT_DAYS, RELEASE_PURGE_AFTER_MAX_DAYS, TUF_TIMESTAMP_EXPIRY_DEFAULT_SECONDS, TUF_TIMESTAMP_EXPIRY_MAX_SECONDS, TUF_TIMESTAMP_EXPIRY_MIN_SECONDS,
  UPDATE_ARRIVAL_WINDOW_DEFAULT_HOURS, UPDATE_ARRIVAL_WINDOW_MAX_HOURS } from '../../shared/policy';
import { Config, ConfigError, DEFAULT_METRICS_PORT, DEFAULT_TIERS, loadConfig, MIN_ADMIN_KEY_LENGTH, MIN_METRICS_TOKEN_LENGTH } from '../../shared/config';
import { defaultHashingThreads } from '../../shared/hashing-threads/hashing-threads';
import { DEFAULT_CHANNELS } from '../../shared/releases/channels';

const KEY_A = 'a'.repeat(MIN_ADMIN_KEY_LENGTH);
const KEY_B = 'b'.repeat(MIN_ADMIN_KEY_LENGTH + 8);
const SECRET_KEY = 'c'.repeat(64);

/** The problems loadConfig reports for `env`; fails the test when it accepts it. */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  expect.fail(`loadConfig accepted ${JSON.stringify(env)}`);
}

/** Asserts `env` is refused with exactly one problem, naming `variable`. */
function expectRefused(env: Record<string, string>, variable: string): void {
  const problems = problemsOf(env);
  expect(problems, JSON.stringify(env)).to.have.length(1);
  expect(problems[0]).to.include(variable);
}

describe('loadConfig', () => {
  describe('defaults', () => {
    let config: Readonly<Config>;
    before(() => {
      config = loadConfig({});
    });

    it('listens on port 3000 and derives the public base URL from the port', () => {
      expect(config.port).to.equal(3000);
      expect(config.publicBaseUrl).to.equal('http://localhost:3000');
      expect(loadConfig({ PORT: '8081' }).publicBaseUrl).to.equal('http://localhost:8081');
    });

    it('binds the loopback address only, as the README promises for the embedded default', () => {
      expect(config.host).to.equal('127.0.0.1');
    });

    it('keeps data in ./data, resolved to an absolute path', () => {
      expect(config.dataDir).to.equal(path.resolve('data'));
      expect(path.isAbsolute(loadConfig({ DATA_DIR: 'relative/dir' }).dataDir)).to.equal(true);
    });

    it('uses the default tiers in ascending order', () => {
      expect(config.tiers).to.deep.equal(['free', 'standard', 'premium', 'enterprise']);
      expect(config.tiers).to.deep.equal(DEFAULT_TIERS);
    });

    it('uses the default release channels, most stable first', () => {
      expect(config.channels).to.deep.equal(['stable', 'rc', 'beta', 'alpha', 'dev']);
      expect(config.channels).to.deep.equal(DEFAULT_CHANNELS);
    });

    it('runs embedded: no admin keys, MongoDB, Redis URL or S3 configured', () => {
      expect(config.adminApiKeys).to.deep.equal([]);
      expect(config.mongodbUri).to.equal(undefined);
      expect(config.redisUrl).to.equal(undefined);
      expect(config.s3).to.equal(undefined);
      expect(config.trustProxy).to.equal(false);
      expect(config.logLevel).to.equal('info');
    });

    it('is frozen', () => {
      expect(Object.isFrozen(config)).to.equal(true);
      expect(Object.isFrozen(config.tiers)).to.equal(true);
      expect(Object.isFrozen(config.channels)).to.equal(true);
      expect(Object.isFrozen(config.adminApiKeys)).to.equal(true);
    });

    it('treats empty and blank variables as unset', () => {
      expect(loadConfig({ PORT: '', PUBLIC_BASE_URL: '  ', TIERS: '' })).to.include({ port: 3000, publicBaseUrl: 'http://localhost:3000' });
      expect(loadConfig({ CHANNELS: ' ' }).channels).to.deep.equal(DEFAULT_CHANNELS);
    });
  });

  describe('given values', () => {
    it('strips trailing slashes from PUBLIC_BASE_URL', () => {
      expect(loadConfig({ PUBLIC_BASE_URL: 'https://dl.example.com/' }).publicBaseUrl).to.equal('https://dl.example.com');
    });

    it('reads comma-separated admin keys for rotation, ignoring blanks around them', () => {
      expect(loadConfig({ ADMIN_API_KEYS: `${KEY_A}, ${KEY_B} ,` }).adminApiKeys).to.deep.equal([KEY_A, KEY_B]);
    });

    it('reads a custom tier list in the given order', () => {
      expect(loadConfig({ TIERS: 'basic, pro' }).tiers).to.deep.equal(['basic', 'pro']);
    });

    it('reads a custom channel list in the given order', () => {
      expect(loadConfig({ CHANNELS: 'production, early-access ,canary' }).channels).to.deep.equal(['production', 'early-access', 'canary']);
      expect(loadConfig({ CHANNELS: 'stable' }).channels).to.deep.equal(['stable']);
    });

    it('accepts MongoDB with admin keys', () => {
      const config = loadConfig({ MONGODB_URI: 'mongodb://db.example.com/bds', ADMIN_API_KEYS: KEY_A, WEBHOOK_SECRET_KEY: SECRET_KEY, REPOSITORY_KEY_SECRET: SECRET_KEY });
      expect(config.mongodbUri).to.equal('mongodb://db.example.com/bds');
      expect(config.webhooks.secretKeyHex).to.equal(SECRET_KEY);
    });

    it('reads the webhook allow-list lowercase, IPv6 addresses without brackets, and the retry base', () => {
      const config = loadConfig({ WEBHOOK_ALLOWED_HOSTS: ' 127.0.0.1, Hooks.Internal ,[::1]', WEBHOOK_RETRY_BASE_MS: '50' });
      expect(config.webhooks.allowedHosts).to.deep.equal(['127.0.0.1', 'hooks.internal', '::1']);
      expect(config.webhooks.retryBaseMs).to.equal(50);
      expect(loadConfig({}).webhooks).to.deep.equal({ allowedHosts: [], retryBaseMs: 10_000, secretKeyHex: undefined });
    });

    it('hashes on one thread per core (up to four, none on one core) unless HASHING_THREADS says how many', () => {
      expect(loadConfig({}).hashingThreads).to.equal(defaultHashingThreads());
      expect(defaultHashingThreads()).to.equal(os.availableParallelism() > 1 ? Math.min(os.availableParallelism(), 4) : 0);
      expect(loadConfig({ HASHING_THREADS: '0' }).hashingThreads).to.equal(0);
      expect(loadConfig({ HASHING_THREADS: '8' }).hashingThreads).to.equal(8);
    });
  });

  describe('each invalid variable is reported', () => {
    const cases: Array<[string, Record<string, string>]> = [
      ['PORT', { PORT: 'abc' }],
      ['PORT', { PORT: '65536' }],
      ['PORT', { PORT: '-1' }],
      ['PUBLIC_BASE_URL', { PUBLIC_BASE_URL: 'ftp://example.com' }],
      ['PUBLIC_BASE_URL', { PUBLIC_BASE_URL: 'not a url' }],
      ['MONGODB_URI', { MONGODB_URI: 'postgres://db', ADMIN_API_KEYS: KEY_A, WEBHOOK_SECRET_KEY: SECRET_KEY, REPOSITORY_KEY_SECRET: SECRET_KEY }],
      ['WEBHOOK_SECRET_KEY', { WEBHOOK_SECRET_KEY: 'c'.repeat(63) }],
      ['WEBHOOK_SECRET_KEY', { WEBHOOK_SECRET_KEY: 'z'.repeat(64) }],
      ['WEBHOOK_ALLOWED_HOSTS', { WEBHOOK_ALLOWED_HOSTS: 'http://127.0.0.1' }],
      ['WEBHOOK_RETRY_BASE_MS', { WEBHOOK_RETRY_BASE_MS: '0' }],
      ['REDIS_URL', { REDIS_URL: 'http://127.0.0.1:6379' }],
      ['TIERS', { TIERS: 'Free,Pro' }],
      ['TIERS', { TIERS: 'free,,pro' }],
      ['TIERS', { TIERS: 'free,pro,free' }],
      ['CHANNELS', { CHANNELS: 'Stable,Beta' }],
      ['CHANNELS', { CHANNELS: 'stable,,beta' }],
      ['CHANNELS', { CHANNELS: 'stable,beta,stable' }],
      ['CHANNELS', { CHANNELS: 'latest,beta' }],
      ['CHANNELS', { CHANNELS: 'stable,beta-mac' }],
      ['CHANNELS', { CHANNELS: 'stable,nightly-linux-arm64' }],
      ['CHANNELS', { CHANNELS: 'stable,targets' }],
      ['CHANNELS', { CHANNELS: 'root,beta' }],
      ['TRUST_PROXY', { TRUST_PROXY: 'maybe' }],
      ['LOG_LEVEL', { LOG_LEVEL: 'verbose' }],
      ['REDIS_PREFIX', { REDIS_PREFIX: 'has:colon' }],
      ['SHUTDOWN_TIMEOUT_MS', { SHUTDOWN_TIMEOUT_MS: '60000' }],
      ['SHUTDOWN_TIMEOUT_MS', { SHUTDOWN_TIMEOUT_MS: 'soon' }],
      ['HASHING_THREADS', { HASHING_THREADS: '65' }],
      ['HASHING_THREADS', { HASHING_THREADS: 'all' }],
    ];
    for (const [variable, env] of cases) {
      it(`${variable}=${Object.values(env)[0]}`, () => expectRefused(env, variable));
    }
  });

  it('names every refused channel and why in one problem', () => {
    const problems = problemsOf({ CHANNELS: 'latest,Beta,ok,beta-mac' });
    expect(problems).to.have.length(1);
    expect(problems[0]).to.match(/^CHANNELS .*"latest" is reserved.*"Beta" is not .*"beta-mac" ends like an electron-updater platform suffix/);
  });

  describe('admin keys', () => {
    it(`refuses an entry shorter than ${MIN_ADMIN_KEY_LENGTH} characters, naming its position`, () => {
      const problems = problemsOf({ ADMIN_API_KEYS: `${KEY_A},${'c'.repeat(MIN_ADMIN_KEY_LENGTH - 1)}` });
      expect(problems).to.have.length(1);
      expect(problems[0]).to.match(/ADMIN_API_KEYS entry 2 .*32/);
    });

    it(`accepts an entry of exactly ${MIN_ADMIN_KEY_LENGTH} characters`, () => {
      expect(loadConfig({ ADMIN_API_KEYS: KEY_A }).adminApiKeys).to.deep.equal([KEY_A]);
    });

    it('requires ADMIN_API_KEYS when MONGODB_URI is set', () => {
      expectRefused({ MONGODB_URI: 'mongodb://db.example.com/bds', WEBHOOK_SECRET_KEY: SECRET_KEY, REPOSITORY_KEY_SECRET: SECRET_KEY }, 'ADMIN_API_KEYS');
    });

    it('requires WEBHOOK_SECRET_KEY when MONGODB_URI is set: every process must open the secrets the others sealed', () => {
      expectRefused({ MONGODB_URI: 'mongodb://db.example.com/bds', ADMIN_API_KEYS: KEY_A, REPOSITORY_KEY_SECRET: SECRET_KEY }, 'WEBHOOK_SECRET_KEY');
    });

    it('requires REPOSITORY_KEY_SECRET when MONGODB_URI is set, and refuses one that is not 64 hex digits', () => {
      expectRefused({ MONGODB_URI: 'mongodb://db.example.com/bds', ADMIN_API_KEYS: KEY_A, WEBHOOK_SECRET_KEY: SECRET_KEY }, 'REPOSITORY_KEY_SECRET');
      expectRefused({ REPOSITORY_KEY_SECRET: 'c'.repeat(63) }, 'REPOSITORY_KEY_SECRET');
    });
  });

  it('lists several invalid variables together in one ConfigError', () => {
    const problems = problemsOf({ PORT: 'abc', ADMIN_API_KEYS: 'short', LOG_LEVEL: 'loud', REDIS_URL: 'localhost:6379' });
    expect(problems).to.have.length(4);
    for (const variable of ['PORT', 'ADMIN_API_KEYS', 'LOG_LEVEL', 'REDIS_URL']) {
      expect(problems.some((p) => p.includes(variable)), variable).to.equal(true);
    }
    expect(() => loadConfig({ PORT: 'abc', ADMIN_API_KEYS: 'short' }))
      .to.throw(ConfigError)
      .with.property('message')
      .that.includes('PORT')
      .and.includes('ADMIN_API_KEYS');
  });

  describe('S3', () => {
    it('is off without S3_ENDPOINT and S3_BUCKET', () => {
      expect(loadConfig({ S3_REGION: 'eu-west-1' }).s3).to.equal(undefined);
    });

    it('reads an S3-compatible endpoint with path-style addressing by default', () => {
      const config = loadConfig({
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_BUCKET: 'binaries',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'secret',
      });
      expect(config.s3).to.deep.equal({
        endpoint: 'http://127.0.0.1:9000',
        bucket: 'binaries',
        region: 'us-east-1',
        accessKeyId: 'id',
        secretAccessKey: 'secret',
        forcePathStyle: true,
      });
    });

    it('reads AWS S3 with a bucket only: virtual-hosted addressing, credentials from the environment chain', () => {
      const config = loadConfig({ S3_BUCKET: 'binaries', S3_REGION: 'eu-central-1' });
      expect(config.s3).to.deep.include({ endpoint: undefined, bucket: 'binaries', region: 'eu-central-1', forcePathStyle: false });
      expect(config.s3?.accessKeyId).to.equal(undefined);
    });

    it('honours S3_FORCE_PATH_STYLE', () => {
      expect(loadConfig({ S3_ENDPOINT: 'http://s3.local', S3_BUCKET: 'bin', S3_FORCE_PATH_STYLE: 'false' }).s3?.forcePathStyle).to.equal(false);
      expect(loadConfig({ S3_BUCKET: 'bin', S3_FORCE_PATH_STYLE: 'true' }).s3?.forcePathStyle).to.equal(true);
    });

    it('requires S3_BUCKET with S3_ENDPOINT', () => expectRefused({ S3_ENDPOINT: 'http://s3.local' }, 'S3_BUCKET'));
    it('refuses an invalid bucket name', () => expectRefused({ S3_BUCKET: 'Not_A_Bucket' }, 'S3_BUCKET'));
    it('refuses a non-http endpoint', () => expectRefused({ S3_ENDPOINT: 's3.local', S3_BUCKET: 'bin' }, 'S3_ENDPOINT'));
    it('refuses an invalid S3_FORCE_PATH_STYLE', () => expectRefused({ S3_BUCKET: 'bin', S3_FORCE_PATH_STYLE: 'sometimes' }, 'S3_FORCE_PATH_STYLE'));

    it('requires the access key id and secret together', () => {
      expectRefused({ S3_BUCKET: 'bin', S3_ACCESS_KEY_ID: 'id' }, 'S3_SECRET_ACCESS_KEY');
      expectRefused({ S3_BUCKET: 'bin', S3_SECRET_ACCESS_KEY: 'secret' }, 'S3_ACCESS_KEY_ID');
    });
  });

  describe('rate limits', () => {
    const perMinute = (requests: number) => ({ requests, windowSeconds: 60 });

    it('limits every key and share link by default: admin keys, each tier, share tokens and client addresses', () => {
      expect(loadConfig({}).rateLimits).to.deep.equal({
        admin: perMinute(6000),
        customer: perMinute(600),
        'share-link': perMinute(600),
        'share-client': perMinute(1200),
        free: perMinute(600),
        standard: perMinute(1200),
        premium: perMinute(3000),
        enterprise: perMinute(6000),
      });
    });

    it('takes RATE_LIMITS entries over the defaults; a tier without a limit of its own follows customer', () => {
      const limits = loadConfig({ TIERS: 'basic,pro,enterprise', RATE_LIMITS: 'customer=100/10, pro=5000/3600,share-link=7/1' }).rateLimits;
      expect(limits).to.deep.include({
        customer: { requests: 100, windowSeconds: 10 },
        basic: { requests: 100, windowSeconds: 10 },
        pro: { requests: 5000, windowSeconds: 3600 },
        enterprise: perMinute(6000),
        'share-link': { requests: 7, windowSeconds: 1 },
        admin: perMinute(6000),
      });
      expect(Object.isFrozen(limits)).to.equal(true);
    });

    it('turns every limit off with RATE_LIMITS=off', () => {
      expect(loadConfig({ RATE_LIMITS: 'off' }).rateLimits).to.equal(null);
    });

    it('refuses unknown policies, malformed entries and figures out of range', () => {
      for (const RATE_LIMITS of ['gold=10/60', 'admin=10', 'admin:10/60', 'admin=0/60', 'admin=10/0', 'admin=10/86401', 'admin=1000000001/60', 'admin=-1/60', 'on']) {
        expectRefused({ RATE_LIMITS }, 'RATE_LIMITS');
      }
    });

    it('refuses a tier named like a rate-limit policy', () => {
      expectRefused({ TIERS: 'free,admin' }, 'TIERS');
      expectRefused({ TIERS: 'share-link,pro' }, 'TIERS');
    });
  });

  describe('metrics', () => {
    const token = 'm'.repeat(MIN_METRICS_TOKEN_LENGTH);

    it('serves none without METRICS_TOKEN; the worker listens on METRICS_PORT, 9464 unless set', () => {
      expect(loadConfig({}).metricsToken).to.equal(undefined);
      expect(loadConfig({}).metricsPort).to.equal(DEFAULT_METRICS_PORT);
      expect(loadConfig({ METRICS_TOKEN: token, METRICS_PORT: '9100' })).to.deep.include({ metricsToken: token, metricsPort: 9100 });
    });

    it('refuses a token too short to guess or unusable as a bearer credential', () => {
      expectRefused({ METRICS_TOKEN: token.slice(1) }, 'METRICS_TOKEN');
      expectRefused({ METRICS_TOKEN: `${token} x` }, 'METRICS_TOKEN');
      expectRefused({ METRICS_TOKEN: 'm'.repeat(513) }, 'METRICS_TOKEN');
    });

    it('takes HOST as an IP address or a host name, and refuses anything else', () => {
      expect(loadConfig({ HOST: '0.0.0.0' }).host).to.equal('0.0.0.0');
      expect(loadConfig({ HOST: '[::]' }).host).to.equal('::');
      expect(loadConfig({ HOST: 'app.internal' }).host).to.equal('app.internal');
      for (const HOST of ['http://0.0.0.0', 'a b', '0.0.0.0:3000', '-host']) {
        expect(() => loadConfig({ HOST }), HOST).to.throw(ConfigError, /HOST must be an IP address/);
      }
    });

    it('takes LOG_FORMAT pretty or json, unset by default (the logger picks by terminal)', () => {
      expect(loadConfig({}).logFormat).to.equal(undefined);
      expect(loadConfig({ LOG_FORMAT: 'Pretty' }).logFormat).to.equal('pretty');
      expect(() => loadConfig({ LOG_FORMAT: 'text' })).to.throw(ConfigError, /LOG_FORMAT must be pretty or json/);
    });

    it('refuses a port that is not one', () => {
      expectRefused({ METRICS_PORT: '70000' }, 'METRICS_PORT');
      expectRefused({ METRICS_PORT: 'metrics' }, 'METRICS_PORT');
    });
  });

  describe('the retention of a deleted application\'s releases', () => {
    it(`keeps them ${RELEASE_PURGE_AFTER_DEFAULT_DAYS} days unless RELEASE_PURGE_AFTER_DAYS says otherwise (0: purgeable at once)`, () => {
      expect(loadConfig({}).releasePurgeAfterDays).to.equal(RELEASE_PURGE_AFTER_DEFAULT_DAYS);
      expect(loadConfig({ RELEASE_PURGE_AFTER_DAYS: '30' }).releasePurgeAfterDays).to.equal(30);
      expect(loadConfig({ RELEASE_PURGE_AFTER_DAYS: '0' }).releasePurgeAfterDays).to.equal(0);
    });

    it('refuses a number of days that is not a whole number from 0 to the largest', () => {
      for (const days of ['-1', '1.5', 'forever', String(RELEASE_PURGE_AFTER_MAX_DAYS + 1)]) expectRefused({ RELEASE_PURGE_AFTER_DAYS: days }, 'RELEASE_PURGE_AFTER_DAYS');
    });
  });

  describe('the lifetime of a TUF timestamp', () => {
    it(`signs timestamp.json for ${TUF_TIMESTAMP_EXPIRY_DEFAULT_SECONDS} seconds unless TUF_TIMESTAMP_EXPIRY says otherwise`, () => {
      expect(loadConfig({}).tufTimestampExpirySeconds).to.equal(TUF_TIMESTAMP_EXPIRY_DEFAULT_SECONDS);
      expect(loadConfig({ TUF_TIMESTAMP_EXPIRY: '7200' }).tufTimestampExpirySeconds).to.equal(7200);
    });

    it('refuses a lifetime that is not a whole number of seconds from an hour to thirty days', () => {
      for (const seconds of ['0', '60', String(TUF_TIMESTAMP_EXPIRY_MIN_SECONDS - 1), String(TUF_TIMESTAMP_EXPIRY_MAX_SECONDS + 1), '1.5', '1d']) {
        expectRefused({ TUF_TIMESTAMP_EXPIRY: seconds }, 'TUF_TIMESTAMP_EXPIRY');
      }
    });
  });

  describe('the update arrival window', () => {
    it(`waits ${UPDATE_ARRIVAL_WINDOW_DEFAULT_HOURS} hours for an offered install to arrive unless UPDATE_ARRIVAL_WINDOW says otherwise`, () => {
      expect(loadConfig({}).updateArrivalWindowHours).to.equal(UPDATE_ARRIVAL_WINDOW_DEFAULT_HOURS);
      expect(loadConfig({ UPDATE_ARRIVAL_WINDOW: '24' }).updateArrivalWindowHours).to.equal(24);
    });

    it('refuses a window that is not a whole number of hours from one to thirty days', () => {
      for (const hours of ['0', '-1', '1.5', '72h', String(UPDATE_ARRIVAL_WINDOW_MAX_HOURS + 1)]) expectRefused({ UPDATE_ARRIVAL_WINDOW: hours }, 'UPDATE_ARRIVAL_WINDOW');
    });
  });

  describe('the Sigstore trusted root', () => {
    it('reads SIGSTORE_TRUSTED_ROOT once, and has none unless it is set', () => {
      expect(loadConfig({}).sigstoreTrustedRoot).to.equal(null);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-root-'));
      const root = { mediaType: 'application/vnd.dev.sigstore.trustedroot+json;version=0.1', tlogs: [], certificateAuthorities: [], ctlogs: [], timestampAuthorities: [] };
      fs.writeFileSync(path.join(dir, 'root.json'), JSON.stringify(root));
      expect(loadConfig({ SIGSTORE_TRUSTED_ROOT: path.join(dir, 'root.json') }).sigstoreTrustedRoot).to.deep.equal(root);
    });

    it('refuses a file that is missing, not JSON, or no trusted root', () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-root-'));
      fs.writeFileSync(path.join(dir, 'text'), 'not json');
      fs.writeFileSync(path.join(dir, 'array.json'), '[]');
      for (const file of [path.join(dir, 'missing.json'), path.join(dir, 'text'), path.join(dir, 'array.json')]) {
        expectRefused({ SIGSTORE_TRUSTED_ROOT: file }, 'SIGSTORE_TRUSTED_ROOT');
      }
    });
  });
});
