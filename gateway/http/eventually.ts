/**
 * The download path's one convention for waiting: a step answers now when everything it needs is in
 * process, and returns a promise only when it has to wait (a key, record or signature not cached
 * yet). The busiest requests find everything cached, so they go through without a promise or a turn
 * of the event loop. Callers continue with andThen() (or, inside an async function,
 * `isPending(x) ? await x : x`), never with a bare `await`, which always waits a turn.
 */
export type Eventually<T> = T | Promise<T>;

export function isPending<T>(value: Eventually<T>): value is Promise<T> {
  return value instanceof Promise;
}

/**
 * `next(value, arg)` now when `value` is at hand, else once it resolves. `arg` spares the caller a
 * closure per request: `next` is a function made once, not one made around each request.
 */
export function andThen<T, A, U>(value: Eventually<T>, next: (value: T, arg: A) => Eventually<U>, arg: A): Eventually<U> {
  return value instanceof Promise ? value.then((resolved) => next(resolved, arg)) : next(value, arg);
}
