// Keyset-paged lists (the activity feed, the audit log): pages are appended as the reader reaches the
// end, by an IntersectionObserver on a sentinel, and by a "Load more" button for keyboard users.
import { useEffect, useRef, useState } from 'preact/hooks';

export interface FeedPage<T> {
  items: T[];
  nextCursor: string | null;
  hasMore: boolean;
}

export interface Feed<T> {
  items: T[];
  error: unknown;
  loading: boolean;
  hasMore: boolean;
  loadMore(): void;
  reload(): void;
}

/** The pages of a feed from its first, loaded again from the start whenever `deps` (its filters) change. */
export function useFeed<T>(load: (cursor: string | undefined, signal: AbortSignal) => Promise<FeedPage<T>>, deps: readonly unknown[]): Feed<T> {
  const [state, setState] = useState<{ items: T[]; cursor: string | null; hasMore: boolean; error: unknown; loading: boolean }>(
    { items: [], cursor: null, hasMore: false, error: undefined, loading: true },
  );
  const [generation, setGeneration] = useState(0);
  const controller = useRef<AbortController | null>(null);
  const loadRef = useRef(load);
  loadRef.current = load;

  const fetchPage = (cursor: string | undefined, append: boolean) => {
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    setState((s) => ({ ...s, loading: true, error: undefined, ...(append ? {} : { items: [] }) }));
    loadRef.current(cursor, current.signal).then(
      (page) => {
        if (current.signal.aborted) return;
        setState((s) => ({ items: append ? [...s.items, ...page.items] : page.items, cursor: page.nextCursor, hasMore: page.hasMore, error: undefined, loading: false }));
      },
      (error) => { if (!current.signal.aborted) setState((s) => ({ ...s, error, loading: false })); },
    );
  };

  useEffect(() => {
    fetchPage(undefined, false);
    return () => controller.current?.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, generation]);

  return {
    items: state.items,
    error: state.error,
    loading: state.loading,
    hasMore: state.hasMore,
    loadMore: () => { if (!state.loading && state.hasMore && state.cursor) fetchPage(state.cursor, true); },
    reload: () => setGeneration((g) => g + 1),
  };
}

/** The end of a feed: loads the next page when it scrolls into view, or when its button is pressed. */
export function LoadMore({ feed, noun }: { feed: Feed<unknown>; noun: string }) {
  const sentinel = useRef<HTMLDivElement>(null);
  const loadMore = useRef(feed.loadMore);
  loadMore.current = feed.loadMore;
  useEffect(() => {
    const element = sentinel.current;
    if (!element || !('IntersectionObserver' in window)) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) loadMore.current();
    }, { rootMargin: '200px' });
    observer.observe(element);
    return () => observer.disconnect();
  }, [feed.hasMore]);
  if (!feed.hasMore) {
    return <p class="hint" aria-live="polite">{feed.items.length === 0 ? `No ${noun} match.` : `All ${feed.items.length} ${noun} shown.`}</p>;
  }
  return (
    <div class="load-more" ref={sentinel}>
      <button type="button" class="button secondary" disabled={feed.loading} onClick={feed.loadMore}>
        {feed.loading ? 'Loading…' : `Load more ${noun}`}
      </button>
      <span class="hint" aria-live="polite">{feed.items.length} {noun} shown</span>
    </div>
  );
}
