import { z } from 'zod';
import { FILE_TYPE_MAX_LENGTH } from '../policy';
import { ARCH_ALIASES, archFromAlias, PLATFORM_ALIASES, platformFromAlias } from '../releases/platforms';
import { queryParameter } from './query-fields';
import { anyCase, applicationIdField, channelField } from './fields';

/** A file type as a latest link names it: a file name's extension, one or two parts (`dmg`, `AppImage`, `tar.gz`). */
const FILE_TYPE_PATTERN = `^[A-Za-z0-9]+(?:\\.[A-Za-z0-9]+)?$`;
const FILE_TYPE = new RegExp(FILE_TYPE_PATTERN);
/** A file type after a segment's first dot, as the API description states it: FILE_TYPE_PATTERN, at most FILE_TYPE_MAX_LENGTH characters. */
const FILE_TYPE_SUFFIX = `(?:\\.(?=[A-Za-z0-9.]{1,${FILE_TYPE_MAX_LENGTH}}$)[A-Za-z0-9]+(?:\\.[A-Za-z0-9]+)?)?`;

export const fileTypeField = z
  .string()
  .max(FILE_TYPE_MAX_LENGTH, `must be at most ${FILE_TYPE_MAX_LENGTH} characters`)
  .regex(FILE_TYPE, 'must be a file name extension without its dot (dmg, zip, exe, msi, AppImage, deb, rpm, tar.gz)')
  .openapi({ description: 'A file name extension without its dot, any case: the MAIN or UPDATE file ending in it', pattern: FILE_TYPE_PATTERN, example: 'dmg' });

/** A path segment naming a platform or an arch by one of its aliases and, on a link's last segment, a file type after a dot. */
export interface TargetSegment<T extends string> {
  value: T;
  fileType?: string;
}

function targetSegment<T extends string>(kind: string, aliases: Readonly<Record<string, T>>, fromAlias: (alias: string) => T | undefined, last: boolean) {
  const names = Object.keys(aliases).join(', ');
  return z
    .string()
    .transform((segment, context): TargetSegment<T> => {
      const dot = last ? segment.indexOf('.') : -1;
      const name = dot < 0 ? segment : segment.slice(0, dot);
      const value = fromAlias(name);
      if (value === undefined) {
        context.addIssue({ code: z.ZodIssueCode.custom, message: `is not a known ${kind}: one of ${names}` });
        return z.NEVER;
      }
      if (dot < 0) return { value };
      const fileType = fileTypeField.safeParse(segment.slice(dot + 1));
      if (!fileType.success) {
        context.addIssue({ code: z.ZodIssueCode.custom, message: `after the ${kind}, a file type ${fileType.error.issues[0].message}` });
        return z.NEVER;
      }
      return { value, fileType: fileType.data };
    })
    .openapi({
      type: 'string',
      pattern: `^(?:${Object.keys(aliases).map(anyCase).join('|')})${last ? FILE_TYPE_SUFFIX : ''}$`,
      description: `${kind === 'arch' ? 'An' : 'A'} ${kind}: one of ${names} (any case)${last ? '; may end in a file type after a dot (`arm64.dmg`)' : ''}`,
    });
}

const platformSegment = (last: boolean) => targetSegment('platform', PLATFORM_ALIASES, platformFromAlias, last);
const archSegment = targetSegment('arch', ARCH_ALIASES, archFromAlias, true);

/** `/latest/{applicationId}/{platform}`: the platform segment may carry the file type. */
export const latestPlatformParams = z.object({ applicationId: applicationIdField, platform: platformSegment(true) });
/** `/latest/{applicationId}/{platform}/{arch}`: the arch segment may carry the file type. */
export const latestArchParams = z.object({ applicationId: applicationIdField, platform: platformSegment(false), arch: archSegment });

export const latestLinkQuery = (channels: readonly string[]) => z
  .object({
    channel: queryParameter(channelField(channels)).openapi({ description: 'This channel and every more stable one (default: the most stable)' }).optional(),
    fileType: queryParameter(fileTypeField).optional(),
  })
  .strict();

export type LatestPlatformParams = z.output<typeof latestPlatformParams>;
export type LatestArchParams = z.output<typeof latestArchParams>;
export type LatestLinkQuery = z.output<ReturnType<typeof latestLinkQuery>>;
