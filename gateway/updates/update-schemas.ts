import { z } from 'zod';
import { ElectronChannelFile, parseElectronChannelFile } from '../../shared/releases/update-client-names';
import { versionOrderKey } from '../../shared/releases/version-order';
import { queryParameter } from '../../shared/contract/query-fields';
import { APPCAST_SYSTEMS } from './sparkle/sparkle-appcast';
import { applicationIdField, archSelectorField, atMostCharacters, channelField, FILE_NAME_MAX_LENGTH, versionField } from '../../shared/contract/fields';

/*
 * The update feeds' paths and queries. Names the clients fill in (channel files, Tauri's target and
 * arch) are only bounded here: one the service does not know is a 404, which is what the clients
 * expect for a build that does not exist.
 */

const clientName = atMostCharacters(z.string().min(1, 'must not be empty'), 64);

/** The version a client runs, with its order key: the checks are hot routes, whose parsed inputs are remembered by URL, so a repeated check computes it once. */
export interface RunningVersion {
  version: string;
  orderKey: string;
}

const runningVersion = versionField.transform((version): RunningVersion => ({ version, orderKey: versionOrderKey(version) }));

const channelQuery = (channels: readonly string[]) => queryParameter(channelField(channels));

/** A channel file's name, read as electron-updater means it (null for a name it never asks for); parsed once per URL, the route being hot. */
export interface ChannelFileRequest {
  fileName: string;
  file: ElectronChannelFile | null;
}

export const electronChannelFileParams = (channels: readonly string[]) => z.object({
  applicationId: applicationIdField,
  channelFile: clientName.transform((fileName): ChannelFileRequest => ({ fileName, file: parseElectronChannelFile(fileName, channels) })),
});

/** electron-updater adds `noCache` to channel-file requests when it sends no Authorization header. */
export const electronChannelFileQuery = z.object({ noCache: z.string({ invalid_type_error: 'must be given once' }).max(64).optional() }).strict();

export const electronFileParams = z.object({
  applicationId: applicationIdField,
  version: versionField,
  fileName: atMostCharacters(z.string().min(1, 'must not be empty'), FILE_NAME_MAX_LENGTH),
});

export const tauriCheckParams = z.object({ applicationId: applicationIdField, target: clientName, arch: clientName, currentVersion: runningVersion });

export const tauriCheckQuery = (channels: readonly string[]) => z.object({ channel: channelQuery(channels).optional() }).strict();

export const squirrelMacParams = z.object({ applicationId: applicationIdField, currentVersion: runningVersion });

export const squirrelMacQuery = (channels: readonly string[]) =>
  z.object({
    channel: channelQuery(channels).optional(),
    /** What the app puts there from process.arch; Intel when left out. */
    arch: z.enum(['x64', 'arm64'], { errorMap: () => ({ message: 'must be x64 or arm64' }) }).optional(),
  }).strict();

/** Sparkle's appcast: the channel in the path (the client's SUFeedURL names one feed), and the system and arch of the builds it lists. */
export const sparkleAppcastParams = (channels: readonly string[]) => z.object({ applicationId: applicationIdField, channel: channelField(channels) });

export const sparkleAppcastQuery = z.object({
  /** macOS (Sparkle) when left out; `windows` for WinSparkle and NetSparkle. */
  os: queryParameter(z.enum(APPCAST_SYSTEMS, { errorMap: () => ({ message: `must be one of: ${APPCAST_SYSTEMS.join(', ')}` }) })).optional(),
  /** Needed only when a release has builds per arch and no universal one. */
  arch: queryParameter(archSelectorField).optional(),
}).strict();
