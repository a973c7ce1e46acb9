import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { armoredPublicKeys, generateRepositoryKey } from '../../shared/signing/repository-keys';

const run = promisify(execFile);

/**
 * `key.asc` is what a Linux user turns into a keyring with `gpg --dearmor`: every block the
 * service armours must pass GnuPG's own reader, whatever the length of its last line (the user ID
 * carries the application id, so the length varies from one application to the next).
 */
describe('repository keys, as GnuPG reads them', function () {
  this.timeout(120_000);
  let directory: string;

  before(async () => {
    directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'bds-repository-keys-'));
  });
  after(async () => {
    await fsp.rm(directory, { recursive: true, force: true });
  });

  it('dearmors the served block for application ids of every length from 1 to 48, one key and two', async () => {
    const secret = randomBytes(32);
    const at = new Date();
    for (let length = 1; length <= 48; length += 1) {
      const applicationId = 'a'.repeat(length);
      const keys = [await generateRepositoryKey(secret, applicationId, at)];
      if (length % 4 === 0) keys.push(await generateRepositoryKey(secret, applicationId, at));
      const armored = path.join(directory, `${length}.asc`);
      await fsp.writeFile(armored, await armoredPublicKeys(keys));
      const dearmored = path.join(directory, `${length}.gpg`);
      await run('gpg', ['--batch', '--yes', '--dearmor', '-o', dearmored, armored]).catch((error: Error & { stderr?: string }) => {
        throw new Error(`gpg --dearmor refused the block for an id of ${length} characters: ${error.stderr ?? error.message}`);
      });
      const listed = await run('gpg', ['--batch', '--with-colons', '--show-keys', dearmored], { env: { ...process.env, GNUPGHOME: directory } });
      const fingerprints = listed.stdout.split('\n').filter((line) => line.startsWith('fpr:')).map((line) => line.split(':')[9]);
      expect(fingerprints, `id of ${length} characters`).to.deep.equal(keys.map((key) => key.fingerprint.toUpperCase()));
    }
  });
});
