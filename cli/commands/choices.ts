import { PLATFORMS, ARCHS } from '../../shared/releases/platforms';
import { RELEASE_STATUSES } from '../../shared/releases/lifecycle';
import { FILE_TYPES } from '../../shared/releases/file-types';

/**
 * The values options take from fixed vocabularies, checked by commander before anything is sent
 * (exit 2). Channels and tiers are the service's configuration (CHANNELS, TIERS): the service checks
 * those and names the ones it has.
 */
export const FILE_PLATFORMS: readonly string[] = PLATFORMS;
export const FILE_ARCHS: readonly string[] = ARCHS;
/** What a download selects by: a build's platform and arch (`any` describes a file, it is not asked for). */
export const SELECTABLE_PLATFORMS = PLATFORMS.filter((platform) => platform !== 'any');
export const SELECTABLE_ARCHS = ARCHS.filter((arch) => arch !== 'any');
export const VERSION_STATUSES: readonly string[] = RELEASE_STATUSES;
/** What an upload may create a version as. */
export const UPLOAD_STATUSES = RELEASE_STATUSES.filter((status) => status !== 'yanked');
export const FILE_TYPE_NAMES: readonly string[] = FILE_TYPES;
