import fs from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { LICENCE_REVISION_MAX, LOGO_CONTENT_TYPES, LOGO_MAX_BYTES } from '../../shared/policy';
import { action, collect, integerOption } from '../context';
import { UsageError } from '../errors';
import type { AnswerOf } from '../../shared/contract/client';
import { formatBytes } from '../../shared/byte-sizes';
import { pageFooter, PageOptions, withPageOptions } from './pages';


interface ChangeOptions {
  name?: string;
  description?: string;
  tag?: string[];
  customer?: string[];
  /** The key, `@path` of a file holding it, or false (--no-update-signing-key) to remove it. */
  updateSigningKey?: string | false;
  /** Sparkle's EdDSA public key (or `@path`), or false (--no-sparkle-public-key) to remove it. */
  sparklePublicKey?: string | false;
  /** The licence's Markdown (or `@path`), or false (--no-licence) to remove it. */
  licence?: string | false;
  licenceRevision?: number;
  /** The portal's branding; false (--no-…) clears each. */
  displayName?: string | false;
  accentColour?: string | false;
  supportUrl?: string | false;
  /** Uploads naming no status create drafts (true) or publish at once (false, --no-drafts). */
  drafts?: boolean;
}

/**
 * A value given inline or as `@path` of a file holding it (the `.pub` file `tauri signer generate`
 * writes, the licence's Markdown); false (a --no-… option) is null: remove it.
 */
function fileValue(value: string | false | undefined, what: string, trim = false): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === false) return null;
  if (!value.startsWith('@')) return value;
  try {
    const text = fs.readFileSync(value.slice(1), 'utf8');
    return trim ? text.trim() : text;
  } catch (error) {
    throw new UsageError(`cannot read the ${what} from ${value.slice(1)}: ${(error as Error).message}`);
  }
}

/** A field the body names when its option was given (null: --no-… clears it). */
const field = (name: string, value: unknown): Record<string, unknown> => (value === undefined ? {} : { [name]: value });

/** The body fields an option set names; --no-tags / --no-customers clear the lists. */
function applicationFields(options: ChangeOptions & { tags?: boolean; customers?: boolean }) {
  const clearable = (value: string | false | undefined) => (value === false ? null : value);
  return {
    ...field('updateSigningKey', fileValue(options.updateSigningKey, 'update-signing key')),
    // A key file as generate_keys writes it ends with a newline; the key is the one line.
    ...field('sparklePublicKey', fileValue(options.sparklePublicKey, 'Sparkle public key', true)),
    ...field('licenceText', fileValue(options.licence, 'licence')),
    ...field('licenceRevision', options.licenceRevision),
    ...field('displayName', clearable(options.displayName)),
    ...field('accentColour', clearable(options.accentColour)),
    ...field('supportUrl', clearable(options.supportUrl)),
    ...(options.drafts !== undefined ? { defaultVersionStatus: options.drafts ? 'draft' as const : 'published' as const } : {}),
    ...(options.name !== undefined ? { name: options.name } : {}),
    ...(options.description !== undefined ? { description: options.description === '' ? null : options.description } : {}),
    ...(options.tag ? { tags: options.tag } : options.tags === false ? { tags: [] } : {}),
    ...(options.customer ? { customerIds: options.customer } : options.customers === false ? { customerIds: [] } : {}),
  };
}

/** The image types a logo may have, by file extension; --type names one for a file named otherwise. */
const LOGO_TYPES_BY_EXTENSION: Record<string, (typeof LOGO_CONTENT_TYPES)[number]> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.webp': 'image/webp' };

function logoType(file: string, type: string | undefined): string {
  if (type !== undefined) {
    if (!(LOGO_CONTENT_TYPES as readonly string[]).includes(type)) throw new UsageError(`--type must be one of ${LOGO_CONTENT_TYPES.join(', ')}`);
    return type;
  }
  const known = LOGO_TYPES_BY_EXTENSION[path.extname(file).toLowerCase()];
  if (!known) throw new UsageError(`a logo is a .png, .jpg, .jpeg or .webp file (or name its type with --type ${LOGO_CONTENT_TYPES.join('|')})`);
  return known;
}

/** An application as a record prints: its logo in words rather than as an object. */
function printable(app: AnswerOf<'updateApplication'>): Record<string, unknown> {
  return { ...app, logo: app.logo ? `${app.logo.contentType}, ${formatBytes(app.logo.size)}, sha256 ${app.logo.sha256}` : 'none' };
}

/** `bds apps logo set|remove`: the logo the download portal shows beside the application's name. */
function logoCommand(): Command {
  const command = new Command('logo').description("The logo the download portal shows beside an application's name: set, remove");
  command.command('set <applicationId> <file>').description(`Set the logo from a PNG, JPEG or WebP file of up to ${formatBytes(LOGO_MAX_BYTES)}, replacing any before`)
    .option('--type <mediaType>', `the image's type when the file name does not tell it (${LOGO_CONTENT_TYPES.join(', ')})`)
    .action(action(async (context, applicationId: string, file: string, options: { type?: string }) => {
      const contentType = logoType(file, options.type);
      let bytes: Buffer;
      try {
        bytes = fs.readFileSync(file);
      } catch (error) {
        throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
      }
      if (bytes.length > LOGO_MAX_BYTES) throw new UsageError(`${file} is ${formatBytes(bytes.length)}: a logo is at most ${formatBytes(LOGO_MAX_BYTES)}`);
      const data = await context.client().setApplicationLogo({ applicationId: applicationId }, { bytes: bytes, contentType: contentType });
      context.output.result(data, () => context.output.line(`logo of ${data.applicationId} set: ${printable(data).logo as string}`));
    }));
  command.command('remove <applicationId>').description('Remove the logo: the portal shows the name alone')
    .action(action(async (context, applicationId: string) => {
      const data = await context.client().removeApplicationLogo({ applicationId: applicationId });
      context.output.result(data, () => context.output.line(`logo of ${data.applicationId} removed`));
    }));
  return command;
}

export function applicationsCommand(): Command {
  const command = new Command('applications').alias('apps').description('Applications: list, create, show, update, delete, restore, purge, logo');

  withPageOptions(
    command.command('list').description('List applications, oldest first')
      .option('--tag <tag>', 'only those with this tag')
      .option('--customer <customerId>', 'only those this customer may download')
      .option('--include-deleted', 'also soft-deleted applications'),
  ).action(action(async (context, options: PageOptions & { tag?: string; customer?: string; includeDeleted?: boolean }) => {
    const data = await context.client().listApplications({
      page: options.page, pageSize: options.pageSize, tag: options.tag, customerId: options.customer, includeDeleted: options.includeDeleted,
    });
    context.output.result(data, () => {
      context.output.table(['application', 'name', 'tags', 'customers', 'active', 'created'], data.applications.map((app) => [
        app.applicationId, app.name, app.tags, app.customerIds.length, app.isActive ? 'yes' : 'deleted', app.createdAt,
      ]));
      pageFooter(context.output, data.pagination, 'applications');
    });
  }));

  command.command('create <applicationId>').description('Create an application')
    .requiredOption('--name <name>', 'display name')
    .option('--description <text>', 'description')
    .option('--tag <tag>', 'a tag (repeatable)', collect)
    .option('--customer <customerId>', 'a customer who may download it (repeatable; bds customers grant adds one later)', collect)
    .option('--update-signing-key <key>', 'the minisign public key update signatures must verify against (or @file.pub)')
    .option('--sparkle-public-key <key>', "Sparkle's EdDSA public key (SUPublicEDKey, as generate_keys prints it, or @file) Sparkle signatures must verify against")
    .option('--drafts', 'uploads that name no --status create drafts, invisible to customers until published (default: they publish at once)')
    .action(action(async (context, applicationId: string, options: ChangeOptions) => {
      const data = await context.client().createApplication({ applicationId, ...applicationFields(options) });
      context.output.result(data, () => context.output.record(printable(data)));
    }));

  command.command('show <applicationId>').description('Show an application with its versions and files')
    .option('--include-deleted', 'also when soft-deleted')
    .action(action(async (context, applicationId: string, options: { includeDeleted?: boolean }) => {
      const data = await context.client().getApplication({ applicationId: applicationId }, { includeDeleted: options.includeDeleted });
      context.output.result(data, () => {
        const { versions, ...fields } = data;
        context.output.record(printable(fields));
        context.output.line();
        context.output.table(['version', 'file', 'type', 'platform', 'size', 'status', 'checksum'], versions.flatMap((version) =>
          version.files.map((file) => [version.version, file.fileName, file.fileType, `${file.platform ?? 'any'}/${file.arch ?? 'any'}`, formatBytes(file.fileSize), file.status, file.checksum])));
      });
    }));

  command.command('update <applicationId>').description('Change an application (the lists given replace the stored ones)')
    .option('--name <name>', 'display name')
    .option('--description <text>', 'description ("" clears it)')
    .option('--tag <tag>', 'a tag (repeatable; replaces every tag)', collect)
    .option('--no-tags', 'remove every tag')
    .option('--customer <customerId>', 'a customer who may download it (repeatable; replaces the list: bds customers grant/revoke change one)', collect)
    .option('--no-customers', 'no customer may download it')
    .option('--update-signing-key <key>', 'the minisign public key update signatures must verify against (or @file.pub)')
    .option('--sparkle-public-key <key>', "Sparkle's EdDSA public key (SUPublicEDKey, as generate_keys prints it, or @file) Sparkle signatures must verify against")
    .option('--no-update-signing-key', 'remove the update-signing key: SIGNATURE files are no longer checked')
    .option('--no-sparkle-public-key', 'remove the Sparkle public key: Sparkle signatures are no longer checked')
    .option('--licence <markdown>', 'the licence customers accept before downloading, Markdown (or @licence.md); a new text moves to the next revision')
    .option('--licence-revision <n>', 'the revision of the licence (with --licence; alone, to ask every customer again)', integerOption('--licence-revision', 1, LICENCE_REVISION_MAX))
    .option('--no-licence', 'remove the licence: customers download without accepting one')
    .option('--display-name <name>', "the portal's name for the application")
    .option('--no-display-name', 'the portal shows --name')
    .option('--accent-colour <#rrggbb>', "the portal's accent colour")
    .option('--no-accent-colour', "the portal's own colour")
    .option('--support-url <https-url>', 'where customers get help (the portal links it)')
    .option('--no-support-url', 'no support link')
    .option('--drafts', 'uploads that name no --status create drafts from now on')
    .option('--no-drafts', 'uploads that name no --status publish at once from now on')
    .action(action(async (context, applicationId: string, options: ChangeOptions & { tags?: boolean; customers?: boolean }) => {
      const changes = applicationFields(options);
      if (Object.keys(changes).length === 0) {
        throw new UsageError('nothing to change: give at least one of --name, --description, --tag, --no-tags, --customer, --no-customers, --update-signing-key, --no-update-signing-key, '
          + '--sparkle-public-key, --no-sparkle-public-key, --licence, --licence-revision, --no-licence, --display-name, --no-display-name, --accent-colour, --no-accent-colour, '
          + '--support-url, --no-support-url, --drafts, --no-drafts');
      }
      const data = await context.client().updateApplication({ applicationId: applicationId }, changes);
      context.output.result(data, () => context.output.record(printable(data)));
    }));

  command.command('delete <applicationId>').description('Soft-delete an application (restore brings it back)')
    .action(action(async (context, applicationId: string) => {
      const data = await context.client().deleteApplication({ applicationId: applicationId });
      context.output.result(data, () => context.output.line(data.message));
    }));

  command.command('restore <applicationId>').description('Restore a soft-deleted application')
    .action(action(async (context, applicationId: string) => {
      const data = await context.client().restoreApplication({ applicationId: applicationId });
      context.output.result(data, () => context.output.record(printable(data)));
    }));

  command.command('purge <applicationId>')
    .description("Purge a soft-deleted application's releases (bytes, versions, files) once RELEASE_PURGE_AFTER_DAYS have passed since its deletion; it can no longer be restored")
    .requiredOption('--confirm <applicationId>', 'the application id again: a purge cannot be undone')
    .action(action(async (context, applicationId: string, options: { confirm: string }) => {
      if (options.confirm !== applicationId) throw new UsageError(`--confirm must repeat the application id (${applicationId}): a purge cannot be undone`);
      const data = await context.client().purgeApplicationReleases({ applicationId: applicationId });
      context.output.result(data, () => context.output.line(`${data.message} (purge started ${data.purgeStartedAt})`));
    }));

  command.addCommand(logoCommand());

  return command;
}
