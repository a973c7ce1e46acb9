import { compareOrderKeys, versionOrderKey } from '../../../shared/releases/version-order';
import type { Version } from '../../../shared/store/models';
import type { RunningVersion } from '../update-schemas';

/** Whether an offered version ranks above the one the client runs, by the version order. */
export const isNewer = (version: Version, running: RunningVersion): boolean => compareOrderKeys(versionOrderKey(version.version), running.orderKey) > 0;
