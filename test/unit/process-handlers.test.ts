import { expect } from 'chai';
import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import pino from 'pino';
import { installProcessHandlers } from '../../shared/runtime/process-handlers';

/** The handlers on an emitter standing in for the process, their log lines as parsed JSON. */
function handlers(stopping: boolean) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({ write(chunk: Buffer, _encoding, done) { lines.push(JSON.parse(chunk.toString())); done(); } });
  const events = new EventEmitter();
  const shutdowns: [string, number][] = [];
  installProcessHandlers(pino({ level: 'debug' }, sink), (reason, code) => shutdowns.push([reason, code]), events, () => stopping);
  return { events, lines, shutdowns };
}

describe('process handlers', () => {
  it('logs an unhandled rejection at error with its stack while serving, and keeps serving', () => {
    const { events, lines, shutdowns } = handlers(false);
    events.emit('unhandledRejection', new Error('Connection is closed.'));
    expect(lines).to.have.length(1);
    expect(lines[0]).to.include({ level: 50, msg: 'unhandled promise rejection' });
    expect(JSON.stringify(lines[0])).to.include('"stack"');
    expect(shutdowns).to.deep.equal([]);
  });

  it('says a connection failure while stopping in one line at warn, without a stack', () => {
    const { events, lines } = handlers(true);
    events.emit('unhandledRejection', new Error('Connection is closed.'));
    expect(lines).to.have.length(1);
    expect(lines[0]).to.include({ level: 40, reason: 'Connection is closed.' });
    expect(JSON.stringify(lines[0])).not.to.include('stack');
  });

  it('still logs any other rejection while stopping at error, with its stack', () => {
    const { events, lines } = handlers(true);
    events.emit('unhandledRejection', new TypeError('undefined is not a function'));
    expect(lines[0]).to.include({ level: 50, msg: 'unhandled promise rejection' });
    expect(JSON.stringify(lines[0])).to.include('"stack"');
  });
});
