/** The recogniser of build tools' outputs: pure, used by `bds publish` and the console's upload panel. */
export * from './build-files';
export { planRelease } from './plan';
export type { PlanOptions } from './plan';
export { standingOf } from './standing';
export type { HeldVersion, Standing, StandingOptions } from './standing';
export { joinPlans, planMadeArtifacts } from './made-artifacts';
export type { MadeArtifact } from './made-artifacts';
