// What every write button of the console shares: a busy state while the request runs (so a person
// sees it working and cannot send it twice), the error in words, a secret shown once, and a
// two-step confirmation for what cannot be undone.
import type { ComponentChildren } from 'preact';
import { useCallback, useState } from 'preact/hooks';
import { CopyButton } from './components';

export interface Action {
  busy: boolean;
  error: unknown;
  /** Runs `work` unless one is running; its error is kept for an ErrorNotice, and it answers undefined then. */
  run<T>(work: () => Promise<T>): Promise<T | undefined>;
  clearError(): void;
}

export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const run = useCallback(async <T,>(work: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(undefined);
    try {
      return await work();
    } catch (failure) {
      setError(failure);
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, clearError: () => setError(undefined) };
}

/**
 * A secret the service shows only in the answer that made it (a key, a webhook secret, a share
 * link): shown with a copy button and the warning that it will not be shown again.
 */
export function ShownOnce({ title, value, onDone }: { title: string; value: string; onDone: () => void }) {
  return (
    <div class="notice notice-warning shown-once" role="alert">
      <strong>{title}</strong>
      <p>Copy it now and keep it somewhere safe: <strong>it will not be shown again</strong>.</p>
      <p class="secret"><code data-secret>{value}</code></p>
      <div class="page-actions">
        <CopyButton value={value} />
        <button type="button" class="button secondary button-small" onClick={onDone}>I have saved it</button>
      </div>
    </div>
  );
}

/** A button for what cannot be undone: the first press asks, the second acts. */
export function ConfirmButton({ label, confirmLabel, question, busy, onConfirm, children }: {
  label: string;
  confirmLabel: string;
  question: string;
  busy?: boolean;
  onConfirm: () => void;
  children?: ComponentChildren;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking) return <button type="button" class="button danger button-small" onClick={() => setAsking(true)}>{label}</button>;
  return (
    <span class="confirm" role="group" aria-label={question}>
      <span>{question}</span>
      {children}
      <button type="button" class="button danger button-small" disabled={busy} autoFocus onClick={() => { onConfirm(); setAsking(false); }}>
        {busy ? 'Working…' : confirmLabel}
      </button>
      <button type="button" class="button secondary button-small" onClick={() => setAsking(false)}>Cancel</button>
    </span>
  );
}
