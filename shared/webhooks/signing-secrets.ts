import { openSecret, sealSecret } from '../secrets';
import type { WebhookEndpoint } from '../store/models';

/**
 * Endpoints' signing secrets as the store keeps them: sealed under one key (WEBHOOK_SECRET_KEY, or
 * the embedded default's key in DATA_DIR), bound to their endpoint's id. Opened only to sign.
 */
export class SigningSecrets {
  constructor(private readonly key: Buffer) {}

  seal(webhookId: string, secret: string): string {
    return sealSecret(this.key, secret, webhookId);
  }

  /** The secrets that sign a message sent at `at`: the current one, and the previous one until its overlap ends. */
  signingSecrets(endpoint: WebhookEndpoint, at: Date): string[] {
    const secrets = [openSecret(this.key, endpoint.secret, endpoint.webhookId)];
    if (endpoint.previousSecret !== null && endpoint.previousSecretExpiresAt !== null && endpoint.previousSecretExpiresAt > at) {
      secrets.push(openSecret(this.key, endpoint.previousSecret, endpoint.webhookId));
    }
    return secrets;
  }
}
