import type { AnswerOf } from '../../shared/contract/client';
import type { CommandContext } from '../context';

/**
 * Says, before anything is sent, which installs a signing-key change has left with no path forward
 * (the application's strandedInstalls): the feeds offer them only releases signed under the key they
 * trust, so a release signed under the current key does not reach them.
 */
export function warnOfStrandedInstalls(context: CommandContext, applicationId: string, stranded: AnswerOf<'getApplication'>['strandedInstalls']): void {
  for (const { kind, keyId, versions } of stranded) {
    const key = kind === 'minisign' ? `update-signing key ${keyId}` : `Sparkle key ${keyId}`;
    context.output.event('warning', { applicationId, kind, keyId, versions });
    context.output.note(`Warning: installs of ${applicationId} ${versions.join(', ')} trust the retired ${key} and have no path forward: `
      + `they are offered only releases signed with that key. Publish a bridge release signed with it (and shipping the current key) `
      + 'before or beside this one (docs/signing-key-changes.md).');
  }
}
