/**
 * A job attempt that failed the way the job expects some to (a webhook receiver answering 503): it
 * is retried as any failure is, and logged as one warn line with its details, without a stack trace,
 * which would only say where the job noticed it.
 */
export class ExpectedJobFailure extends Error {
  constructor(message: string, readonly details: Record<string, unknown>) {
    super(message);
    this.name = 'ExpectedJobFailure';
  }
}
