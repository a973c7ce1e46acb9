import { DestinationRefusedError, resolveDestination, type Resolver } from './destination';
import { postWebhook, type PostOptions } from './http-delivery';
import { signedHeaders } from './signature';

/** What one attempt came to: delivered only on a 2xx. */
export interface AttemptOutcome {
  delivered: boolean;
  responseStatus: number | null;
  responseBody: string | null;
  /** Why it did not count as delivered; null when it did. */
  error: string | null;
  /** The destination broke the outbound rules: nothing was sent. */
  refused: boolean;
}

export interface SendOptions extends PostOptions {
  resolve?: Resolver;
}

/** Sends a message once: destination checked after resolution, signed at this moment with every secret given. */
export async function sendMessage(
  url: string,
  allowedHosts: readonly string[],
  secrets: readonly string[],
  messageId: string,
  body: string,
  options: SendOptions = {},
): Promise<AttemptOutcome> {
  try {
    const destination = await resolveDestination(url, allowedHosts, options.resolve);
    const answer = await postWebhook(destination, signedHeaders(secrets, messageId, new Date(), body), body, options);
    const delivered = answer.status >= 200 && answer.status < 300;
    return { delivered, responseStatus: answer.status, responseBody: answer.body, error: delivered ? null : answerProblem(answer.status), refused: false };
  } catch (error) {
    const refused = error instanceof DestinationRefusedError;
    const reason = refused ? `destination refused: ${error.message}` : (error as Error).message;
    return { delivered: false, responseStatus: null, responseBody: null, error: reason, refused };
  }
}

function answerProblem(status: number): string {
  if (status >= 300 && status < 400) return `the receiver answered ${status}: redirects are not followed`;
  return `the receiver answered ${status}`;
}
