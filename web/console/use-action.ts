import { useState } from 'preact/hooks';

export interface Action {
  busy: boolean;
  error: unknown;
  /** Runs `work` once at a time; its failure is kept in `error` for the page to show in words. */
  run: (work: () => Promise<unknown>) => Promise<boolean>;
  clear: () => void;
}

/** A change the page makes (a save, a publish): busy while it runs, its error kept for an ErrorNotice. */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const run = async (work: () => Promise<unknown>) => {
    if (busy) return false;
    setBusy(true);
    setError(undefined);
    try {
      await work();
      return true;
    } catch (failure) {
      setError(failure);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, clear: () => setError(undefined) };
}
