import Table from 'cli-table3';
import { CliError } from '../errors';
import { cell } from './format';

/**
 * Everything a command prints goes through here. With --json stdout carries JSON only: one
 * document per command, or one object per line for the commands that stream (upload, download,
 * activity --follow); without it, tables and lines for people. Failures go to stderr either way.
 */
export class Output {
  constructor(
    readonly json: boolean,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    private readonly stderr: NodeJS.WritableStream = process.stderr,
  ) {}

  /** The command's result: `data` as JSON, or what `human` prints. */
  result(data: unknown, human: () => void): void {
    if (this.json) this.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
    else human();
  }

  /** One event of a streaming command (--json only: one object per line). */
  event(event: string, fields: Record<string, unknown>): void {
    if (this.json) this.stdout.write(`${JSON.stringify({ event, ...fields })}\n`);
  }

  line(text = ''): void {
    if (!this.json) this.stdout.write(`${text}\n`);
  }

  /** A note for people that is not the result (progress lines, hints): stderr, never in --json. */
  note(text: string): void {
    if (!this.json) this.stderr.write(`${text}\n`);
  }

  table(head: string[], rows: unknown[][]): void {
    const table = new Table({ head, style: { head: [], border: [], compact: true } });
    for (const row of rows) table.push(row.map(cell));
    this.line(table.toString());
  }

  /** A record as aligned `name: value` lines. */
  record(fields: Record<string, unknown>): void {
    const width = Math.max(...Object.keys(fields).map((name) => name.length));
    for (const [name, value] of Object.entries(fields)) this.line(`${`${name}:`.padEnd(width + 2)}${cell(value)}`);
  }

  failure(error: CliError): void {
    if (this.json) {
      this.stderr.write(`${JSON.stringify({ error: { message: error.message, exitCode: error.exitCode, ...error.details } })}\n`);
      return;
    }
    // A validation error's message joins its problems: each is printed once, on a line of its own.
    const fieldErrors = error.details.details;
    if (Array.isArray(fieldErrors) && fieldErrors.length > 0) {
      this.stderr.write(`bds: the service refused the request (${String(error.details.code ?? error.details.status)}):\n`);
      for (const problem of fieldErrors as { field?: string; message?: string }[]) this.stderr.write(`  ${problem.field ?? ''}: ${problem.message ?? ''}\n`);
    } else {
      this.stderr.write(`bds: ${error.message}\n`);
    }
    if (typeof error.details.requestId === 'string') this.stderr.write(`  request id: ${error.details.requestId}\n`);
  }
}
