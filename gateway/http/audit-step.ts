import type { AuditOutcome } from '../../shared/store/models';
import { FieldSource, fieldValue } from './access';
import type { AdminPrincipal, AppContext } from './context';
import type { AuditDeclaration, RouteInput } from './route';

/** An audited request as recorded before its handler runs. */
export interface AuditOpening {
  actor: string;
  action: string;
  target: string | null;
  applicationId: string | null;
  requestId: string;
}

/** How it ended; a target or application left undefined keeps what the opening recorded. */
export interface AuditClosing {
  outcome: Exclude<AuditOutcome, 'pending'>;
  status: number;
  target?: string;
  applicationId?: string;
}

/** Where the route builder records audited requests (gateway/admin-keys/audit-service.ts). */
export interface AuditRecorder {
  /** Stores the entry and returns its id; a failure refuses the request before its handler runs. */
  open(opening: AuditOpening): Promise<string>;
  /** Settles it; never throws (the answer is decided already). */
  close(entryId: string, closing: AuditClosing): Promise<void>;
}

/** Settles an opened entry with the status answered and, when the handler succeeded, its result. */
export type CloseAudit = (status: number, result: unknown, applicationId: string | undefined) => Promise<void>;

type AnyInput = RouteInput<unknown, unknown, unknown>;

/**
 * The audit step of one route: it opens the entry (who, what, on what, for which application, under
 * which request id) before the handler runs, so no write happens that the log does not show, and
 * returns what closes it with the outcome once the answer is known.
 */
export function auditStep(declaration: AuditDeclaration, recorder: AuditRecorder) {
  const targets = ([] as FieldSource[]).concat(declaration.target);
  // What a creation makes is known only from its result: until then (or when it fails) the target
  // is what the request names (`cus_1` before `cus_1/key_2`).
  const targetOf = (input: AnyInput, result?: unknown): string | undefined => {
    const parts = targets.map((source) => fieldValue(source, input, result));
    if (parts.some((part, i) => part === undefined && targets[i].from !== 'result')) return undefined;
    const known = parts.filter((part) => part !== undefined);
    return known.length > 0 ? known.join('/') : undefined;
  };
  const declaredApplication = (input: AnyInput, result?: unknown): string | undefined =>
    declaration.application && fieldValue(declaration.application, input, result);

  return async (ctx: AppContext, principal: AdminPrincipal, input: AnyInput, applicationId: string | undefined): Promise<CloseAudit> => {
    const entryId = await recorder.open({
      actor: principal.actor,
      action: declaration.action,
      target: targetOf(input) ?? null,
      applicationId: applicationId ?? declaredApplication(input) ?? null,
      requestId: ctx.state.requestId,
    });
    return (status, result, laterApplicationId) => recorder.close(entryId, {
      outcome: outcomeOf(status),
      status,
      target: targetOf(input, result),
      applicationId: laterApplicationId ?? declaredApplication(input, result),
    });
  };
}

function outcomeOf(status: number): AuditClosing['outcome'] {
  if (status >= 500) return 'failed';
  return status >= 400 ? 'refused' : 'succeeded';
}
