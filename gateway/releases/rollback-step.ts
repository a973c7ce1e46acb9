import type { OfferedRelease } from '../../shared/contract/releases';
import type { Version } from '../../shared/store/models';

/**
 * The catalogue's rollback step: an install running a version yanked with `rollbackTo` is offered
 * that version, when it is among the releases offered to the caller (its channel, tier, rollout and
 * maintenance window apply as to any offer). Feeds ask it only when nothing newer than the running
 * version is offered: a fix published after the yank goes forward, not back. Which clients accept the
 * older version, and in what form, is each feed's (docs/shipping-updates.md, "Rolling back a release").
 */
export function rollbackTarget(running: Version | undefined, offered: readonly OfferedRelease[]): OfferedRelease | null {
  if (!running || running.status !== 'yanked' || running.rollbackTo === null) return null;
  return offered.find((release) => release.version.version === running.rollbackTo) ?? null;
}
