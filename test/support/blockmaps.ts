import { execFile } from 'node:child_process';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { onDemandFile } from './on-demand';

const run = promisify(execFile);

/** electron-builder's Go helper, shipped by the `app-builder-bin` package (installed on demand); its `blockmap` command writes what electron-builder publishes. */
const appBuilderPath = () => onDemandFile(`app-builder-bin/${process.platform === 'darwin' ? 'mac' : process.platform}/${process.arch}/app-builder`);

let executable: Promise<string> | undefined;

/** The package installs the binary without its execute bit here: a copy of it with the bit, made once per process. */
function appBuilder(): Promise<string> {
  executable ??= (async () => {
    const directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'bds-app-builder-'));
    const copy = path.join(directory, 'app-builder');
    await fsp.copyFile(appBuilderPath(), copy);
    await fsp.chmod(copy, 0o755);
    return copy;
  })();
  return executable;
}

/** What `app-builder blockmap` prints: the input's size and SHA-512 (base64), as electron-builder puts them in latest.yml. */
export interface BlockmapSummary {
  size: number;
  sha512: string;
}

/** Writes `{input}.blockmap` with electron-builder's own tool (content-defined chunks, gzipped JSON) and returns it with the summary. */
export async function writeBlockmap(input: string): Promise<{ blockmap: Buffer; summary: BlockmapSummary }> {
  const output = `${input}.blockmap`;
  const { stdout } = await run(await appBuilder(), ['blockmap', '--input', input, '--output', output]);
  return { blockmap: await fsp.readFile(output), summary: JSON.parse(stdout) as BlockmapSummary };
}
