import fs from 'node:fs';
import path from 'node:path';

/** The package's version, for --version and the User-Agent (dist/cli/ sits two levels below package.json). */
export const CLI_VERSION: string = (() => {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version?: string };
    return manifest.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
})();

export const USER_AGENT = `bds-cli/${CLI_VERSION} node/${process.versions.node}`;
