// Standard Webhooks signatures (webhook-id, webhook-timestamp, webhook-signature: v1,<base64 HMAC-SHA256>)
// keyed with the base64 part of a `whsec_` secret — what receivers verify with the `standardwebhooks` libraries.
import { createHmac, randomBytes } from 'node:crypto';

export const SIGNING_SECRET_PREFIX = 'whsec_';

export function generateSigningSecret(): string {
  return SIGNING_SECRET_PREFIX + randomBytes(24).toString('base64');
}

export function signStandardWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SIGNING_SECRET_PREFIX) ? secret.slice(SIGNING_SECRET_PREFIX.length) : secret, 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

export function standardWebhookHeaders(secret: string, id: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signStandardWebhook(secret, id, timestampSeconds, body),
  };
}
