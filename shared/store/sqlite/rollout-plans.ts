import { requireCount } from '../bounds';
import type { RolloutPlanRecord, RolloutPlanStatus } from '../models';
import type { RolloutPlanStore } from '../store';
import type { Row, SqliteDatabase } from './database';

/** Rollout plans on SQLite: each change one UPDATE whose WHERE is where the plan must stand. */
export class SqliteRolloutPlans implements RolloutPlanStore {
  constructor(private readonly database: SqliteDatabase) {}

  async setRolloutPlan(r: RolloutPlanRecord): Promise<void> {
    this.database.prepare(
      `INSERT INTO rollout_plans (application_id, version, plan, status, step, started_at, halted_at, halt_reason, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (application_id, version) DO UPDATE SET plan = excluded.plan, status = excluded.status, step = excluded.step,
         started_at = excluded.started_at, halted_at = excluded.halted_at, halt_reason = excluded.halt_reason, updated_at = excluded.updated_at`,
    ).run(r.applicationId, r.version, JSON.stringify(r.plan), r.status, r.step, r.startedAt.getTime(), r.haltedAt?.getTime() ?? null, r.haltReason,
      r.updatedAt.getTime());
  }

  async getRolloutPlan(applicationId: string, version: string): Promise<RolloutPlanRecord | null> {
    const row = this.database.prepare('SELECT * FROM rollout_plans WHERE application_id = ? AND version = ?').get(applicationId, version) as Row | undefined;
    return row ? planFromRow(row) : null;
  }

  async listRunningRolloutPlans(after: { applicationId: string; version: string } | null, limit: number): Promise<RolloutPlanRecord[]> {
    requireCount('limit', limit);
    const rows = this.database.prepare(
      `SELECT * FROM rollout_plans WHERE status = 'running' AND (application_id > @app OR (application_id = @app AND version > @version))
       ORDER BY application_id, version LIMIT @limit`,
    ).all({ app: after?.applicationId ?? '', version: after?.version ?? '', limit }) as Row[];
    return rows.map(planFromRow);
  }

  async advanceRolloutPlan(applicationId: string, version: string, fromStep: number, toStep: number, at: Date): Promise<boolean> {
    return this.database.prepare(
      `UPDATE rollout_plans SET step = ?, updated_at = ? WHERE application_id = ? AND version = ? AND status = 'running' AND step = ?`,
    ).run(toStep, at.getTime(), applicationId, version, fromStep).changes > 0;
  }

  async haltRolloutPlan(applicationId: string, version: string, atStep: number, reason: string, at: Date): Promise<boolean> {
    return this.database.prepare(
      `UPDATE rollout_plans SET status = 'halted', halted_at = ?, halt_reason = ?, updated_at = ?
       WHERE application_id = ? AND version = ? AND status = 'running' AND step = ?`,
    ).run(at.getTime(), reason, at.getTime(), applicationId, version, atStep).changes > 0;
  }

  async resumeRolloutPlan(applicationId: string, version: string, at: Date): Promise<boolean> {
    return this.database.prepare(
      `UPDATE rollout_plans SET status = 'running', halted_at = NULL, halt_reason = NULL, updated_at = ?
       WHERE application_id = ? AND version = ? AND status = 'halted'`,
    ).run(at.getTime(), applicationId, version).changes > 0;
  }

  async stopRolloutPlan(applicationId: string, version: string, at: Date): Promise<boolean> {
    return this.database.prepare(
      `UPDATE rollout_plans SET status = 'stopped', updated_at = ? WHERE application_id = ? AND version = ? AND status != 'stopped'`,
    ).run(at.getTime(), applicationId, version).changes > 0;
  }
}

function planFromRow(row: Row): RolloutPlanRecord {
  return {
    applicationId: row.application_id as string,
    version: row.version as string,
    plan: JSON.parse(row.plan as string) as RolloutPlanRecord['plan'],
    status: row.status as RolloutPlanStatus,
    step: row.step as number,
    startedAt: new Date(row.started_at as number),
    haltedAt: row.halted_at === null ? null : new Date(row.halted_at as number),
    haltReason: row.halt_reason as string | null,
    updatedAt: new Date(row.updated_at as number),
  };
}
