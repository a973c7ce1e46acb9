import { z } from 'zod';
import { archOfSquirrelWindowsArch, parseVelopackChannel, velopackChannelPattern, VelopackChannel } from '../../../shared/releases/update-client-names';
import type { Arch } from '../../../shared/releases/platforms';
import { versionOrderKey } from '../../../shared/releases/version-order';
import { queryParameter } from '../../../shared/contract/query-fields';
import type { RunningVersion } from '../update-schemas';
import { applicationIdField, atMostCharacters, FILE_NAME_MAX_LENGTH, versionField } from '../../../shared/contract/fields';

/*
 * The Squirrel.Windows and Velopack feeds' paths and queries. Names the clients fill in (a channel,
 * a package's name) are only bounded here: one the service does not know is a 404, which is what
 * the clients take for a feed or package that does not exist.
 */

const clientName = atMostCharacters(z.string().min(1, 'must not be empty'), 64);
const fileName = atMostCharacters(z.string().min(1, 'must not be empty'), FILE_NAME_MAX_LENGTH);
const once = <T extends z.ZodTypeAny>(field: T) => queryParameter(field);

/** The version a client runs, with its order key (a leading `v` aside, as the clients compare): computed once per URL on the hot routes. */
const localVersion = versionField.transform((version): RunningVersion => ({ version, orderKey: versionOrderKey(version.replace(/^[vV]/, '')) }));

/** A package id as the clients send it (NuGet ids: letters, digits, `.`, `_`, `-`). */
const packageId = z.string().min(1, 'must not be empty').max(100, 'must be at most 100 characters')
  .regex(/^[A-Za-z0-9._-]+$/, 'must be letters, digits, . _ and - only');

/** A Squirrel.Windows feed's channel: one of CHANNELS, as the description states; any other name is a 404. */
const squirrelWindowsChannel = (channels: readonly string[]) =>
  clientName.openapi({ enum: [...channels], description: 'One of the channels (any other name: 404 no channel)' });

export const squirrelWindowsParams = z.object({ applicationId: applicationIdField });
export const squirrelWindowsChannelParams = (channels: readonly string[]) => z.object({ applicationId: applicationIdField, channel: squirrelWindowsChannel(channels) });
export const squirrelWindowsPackageParams = (channels: readonly string[]) =>
  z.object({ applicationId: applicationIdField, channel: squirrelWindowsChannel(channels), fileName });

/**
 * What Squirrel.Windows adds to `{feed}/RELEASES` once installed (none at the first install): its
 * package id, its version, and the OS's arch (`amd64` or `x86`, as our `x64` and `ia32`).
 */
export const squirrelWindowsQuery = z.object({
  id: once(packageId).optional(),
  localVersion: once(localVersion).optional(),
  arch: once(z.enum(['amd64', 'x86'], { errorMap: () => ({ message: 'must be amd64 or x86' }) }))
    .transform((arch): Arch => archOfSquirrelWindowsArch(arch) as Arch).optional(),
}).strict();

/** A Velopack channel with what it asks for (null for a name that is no channel here: 404); parsed once per URL. */
export interface VelopackChannelRequest {
  name: string;
  channel: VelopackChannel | null;
}

/**
 * `releases.{channel}.json` and `RELEASES-{channel}`: every name there is the client's channel (in
 * `releases.{channel}.json`, whatever lies between the two, dots included); one that is no channel
 * here is a 404, the same for every spelling. The description states the names that are channels.
 */
export const velopackChannelParams = (channels: readonly string[]) => z.object({
  applicationId: applicationIdField,
  channel: clientName.transform((name): VelopackChannelRequest => ({ name, channel: parseVelopackChannel(name, channels) })).openapi({
    pattern: velopackChannelPattern(channels),
    description: 'win, osx, linux, one of the channels, or <channel>-<win|osx|linux> (any other name: 404 no Velopack channel)',
  }),
});

export const velopackParams = z.object({ applicationId: applicationIdField });
export const velopackPackageParams = z.object({ applicationId: applicationIdField, fileName });

/** What Velopack's HttpSource adds to `releases.{channel}.json`: its version, its package id, and its own staging id (not used: the service decides the rollout). */
export const velopackFeedQuery = z.object({
  localVersion: once(localVersion).optional(),
  id: once(packageId).optional(),
  stagingId: once(clientName).optional(),
}).strict();
