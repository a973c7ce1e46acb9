import { requireCount } from '../bounds';
import type { RolloutPlanRecord } from '../models';
import type { RolloutPlanStore } from '../store';
import type { MongoModels } from './models';
import type { RolloutPlanDoc } from './schemas/adoption';

/** Rollout plans on MongoDB: each change one updateOne whose filter is where the plan must stand (atomic on its document). */
export class MongoRolloutPlans implements RolloutPlanStore {
  constructor(private readonly models: MongoModels) {}

  async setRolloutPlan(r: RolloutPlanRecord): Promise<void> {
    const { applicationId, version, ...fields } = r;
    await this.models.rolloutPlans.collection.updateOne({ applicationId, version }, { $set: { applicationId, version, ...fields } }, { upsert: true });
  }

  async getRolloutPlan(applicationId: string, version: string): Promise<RolloutPlanRecord | null> {
    const doc = await this.models.rolloutPlans.findOne({ applicationId, version }).lean<RolloutPlanDoc>();
    return doc ? planOf(doc) : null;
  }

  async listRunningRolloutPlans(after: { applicationId: string; version: string } | null, limit: number): Promise<RolloutPlanRecord[]> {
    requireCount('limit', limit);
    const position = after
      ? { $or: [{ applicationId: { $gt: after.applicationId } }, { applicationId: after.applicationId, version: { $gt: after.version } }] }
      : {};
    const docs = await this.models.rolloutPlans.find({ status: 'running', ...position }).sort({ status: 1, applicationId: 1, version: 1 }).limit(limit)
      .lean<RolloutPlanDoc[]>();
    return docs.map(planOf);
  }

  async advanceRolloutPlan(applicationId: string, version: string, fromStep: number, toStep: number, at: Date): Promise<boolean> {
    const result = await this.models.rolloutPlans.updateOne({ applicationId, version, status: 'running', step: fromStep }, { $set: { step: toStep, updatedAt: at } });
    return result.modifiedCount > 0;
  }

  async haltRolloutPlan(applicationId: string, version: string, atStep: number, reason: string, at: Date): Promise<boolean> {
    const result = await this.models.rolloutPlans.updateOne(
      { applicationId, version, status: 'running', step: atStep },
      { $set: { status: 'halted', haltedAt: at, haltReason: reason, updatedAt: at } },
    );
    return result.modifiedCount > 0;
  }

  async resumeRolloutPlan(applicationId: string, version: string, at: Date): Promise<boolean> {
    const result = await this.models.rolloutPlans.updateOne(
      { applicationId, version, status: 'halted' },
      { $set: { status: 'running', haltedAt: null, haltReason: null, updatedAt: at } },
    );
    return result.modifiedCount > 0;
  }

  async stopRolloutPlan(applicationId: string, version: string, at: Date): Promise<boolean> {
    const result = await this.models.rolloutPlans.updateOne({ applicationId, version, status: { $ne: 'stopped' } }, { $set: { status: 'stopped', updatedAt: at } });
    return result.modifiedCount > 0;
  }
}

function planOf(doc: RolloutPlanDoc): RolloutPlanRecord {
  return {
    applicationId: doc.applicationId, version: doc.version, plan: doc.plan, status: doc.status, step: doc.step, startedAt: doc.startedAt,
    haltedAt: doc.haltedAt ?? null, haltReason: doc.haltReason ?? null, updatedAt: doc.updatedAt,
  };
}
