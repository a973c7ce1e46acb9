import { ApiError } from './api';

/**
 * An error as a person reads it: what happened and what to do, never raw JSON. The service's own
 * message is kept (it names the field or the rule), prefixed by what the status means for the reader.
 */
export function describeError(error: unknown): { title: string; detail: string } {
  if (!(error instanceof ApiError)) {
    return { title: 'Something went wrong in this page', detail: error instanceof Error ? error.message : String(error) };
  }
  const detail = error.details.length > 0 ? error.details.map((d) => `${d.field}: ${d.message}`).join('; ') : error.message;
  switch (error.status) {
    case 0: return { title: 'The service could not be reached', detail: 'Check your connection; the page retries when you act again.' };
    case 400: return { title: 'Some input was not accepted', detail };
    case 401: return { title: 'This key is not valid', detail: 'Sign in again with a valid key. ' + error.message };
    case 403: return { title: 'This key may not do that', detail: `${error.message}. Ask an administrator for a key with the needed scope.` };
    case 404: return { title: 'Not found', detail: `${error.message}. It may have been deleted; reload the list.` };
    case 409: return { title: 'That conflicts with the current state', detail: `${error.message}. Reload to see the latest state.` };
    case 413: return { title: 'Too large', detail };
    case 429: return {
      title: 'Too many requests',
      detail: error.retryAfterSeconds ? `Try again in ${error.retryAfterSeconds} seconds.` : 'Wait a moment and try again.',
    };
    case 503: return { title: 'The service is busy or a dependency is down', detail: 'Try again in a few seconds.' };
    default: return { title: `The service answered ${error.status}`, detail };
  }
}
