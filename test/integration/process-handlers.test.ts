import { expect } from 'chai';
import { NodeProcess } from '../support/node-process';

const ENTRY = 'test/support/crashing-process.js';

/** The process's stdout as parsed log lines. */
const logLines = (child: NodeProcess): Record<string, any>[] =>
  child.stdout.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));

describe('process-level handlers', function () {
  this.timeout(30_000);
  const started: NodeProcess[] = [];
  const run = (env: Record<string, string>) => {
    const child = new NodeProcess(ENTRY, env);
    started.push(child);
    return child;
  };
  afterEach(async () => {
    await Promise.all(started.splice(0).map((child) => child.kill()));
  });

  it('an uncaught exception is one fatal log line with its stack, then a graceful shutdown and exit 1', async () => {
    const child = run({ CRASH: 'exception' });
    expect(await child.exitWithin(10_000)).to.deep.equal({ code: 1, signal: null });
    const lines = logLines(child);
    const fatal = lines.find((line) => line.level === 60);
    expect(fatal, child.output()).to.include({ origin: 'uncaughtException' });
    expect(fatal?.err).to.include({ message: 'deliberate crash' });
    expect(fatal?.err.stack).to.contain('crashing-process');
    expect(lines.map((line) => line.msg)).to.include.members(['shutting down', 'shutdown step ran', 'shut down']);
    expect(child.stderr, 'stderr').to.equal('');
  });

  it('an uncaught exception while work cannot finish exits 1 at the shutdown deadline', async () => {
    const child = run({ CRASH: 'exception-stuck', SHUTDOWN_TIMEOUT_MS: '500' });
    expect(await child.exitWithin(10_000)).to.deep.equal({ code: 1, signal: null });
    expect(logLines(child).map((line) => line.msg)).to.include('shutdown took too long, exiting');
    expect(child.stderr, 'stderr').to.equal('');
  });

  it('an unhandled rejection is one error log line, and the process carries on', async () => {
    const child = run({ CRASH: 'rejection' });
    expect(await child.exitWithin(10_000)).to.deep.equal({ code: 0, signal: null });
    const lines = logLines(child);
    const rejection = lines.find((line) => line.msg === 'unhandled promise rejection');
    expect(rejection, child.output()).to.include({ level: 50 });
    expect(rejection?.err).to.include({ message: 'deliberate rejection' });
    expect(lines.map((line) => line.msg)).to.include('still running');
    expect(child.stderr, 'stderr').to.equal('');
  });
});
