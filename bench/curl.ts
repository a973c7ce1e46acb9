import { spawn } from 'node:child_process';

/**
 * The client of the bytes-path figures, the same for the service and its baseline: curl moves bytes
 * at several GB/s on one core, so it is not what limits a figure (a Node client was). Each transfer
 * reports its status, bytes moved and seconds through --write-out.
 */
export interface Transfer {
  status: number;
  downloaded: number;
  uploaded: number;
  seconds: number;
}

export interface CurlRun {
  transfers: Transfer[];
  /** Wall-clock seconds of the whole curl process (what an aggregate over parallel transfers is taken on). */
  seconds: number;
}

const WRITE_OUT = '%{http_code} %{size_download} %{size_upload} %{time_total}\\n';
const TIMEOUT_MS = 15 * 60_000;

/** One request of curl's command line: its URL and the options before it (method, headers, body). */
export interface CurlRequest {
  url: string;
  options?: string[];
}

/** Runs the requests one after another in one curl process, on one reused connection. */
export function curlSequential(requests: readonly CurlRequest[]): Promise<CurlRun> {
  const args = requests.flatMap((request, i) => [...(i > 0 ? ['--next'] : []), ...requestArgs(request)]);
  return runCurl(args, requests.length);
}

/** Runs the requests all at once (or `maxParallel` at a time), each on its own connection, in one curl process. */
export function curlParallel(requests: readonly CurlRequest[], maxParallel = requests.length): Promise<CurlRun> {
  const args = ['--parallel', '--parallel-immediate', '--parallel-max', String(maxParallel), ...requests.flatMap(requestArgs)];
  return runCurl(args, requests.length);
}

function requestArgs(request: CurlRequest): string[] {
  // No "Expect: 100-continue": a round trip before every body, on both sides alike, measures nothing.
  return ['--silent', '--show-error', '--output', '/dev/null', '--write-out', WRITE_OUT, '--header', 'Expect:', ...(request.options ?? []), request.url];
}

async function runCurl(args: string[], expected: number): Promise<CurlRun> {
  const started = performance.now();
  const child = spawn('curl', args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: TIMEOUT_MS });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`curl exited with ${code}: ${stderr.slice(0, 1000)}`);
  const transfers = stdout.trim().split('\n').map((line) => {
    const [status, downloaded, uploaded, seconds] = line.split(' ').map(Number);
    return { status, downloaded, uploaded, seconds };
  });
  if (transfers.length !== expected) throw new Error(`curl reported ${transfers.length} transfers, ${expected} were asked for`);
  return { transfers, seconds };
}

/** Fails unless every transfer answered `status` (and downloaded exactly `downloaded` bytes, when given). */
export function checkTransfers(run: CurlRun, what: string, status: number, downloaded?: number): CurlRun {
  const wrong = run.transfers.find((t) => t.status !== status || (downloaded !== undefined && t.downloaded !== downloaded));
  if (wrong) {
    throw new Error(`${what}: HTTP ${wrong.status} with ${wrong.downloaded} bytes, expected ${status}${downloaded === undefined ? '' : ` with ${downloaded}`}`);
  }
  return run;
}
