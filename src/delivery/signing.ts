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

/**
 * The headers of one signed request. With several secrets (just after a rotation: the new one, then the one it
 * replaced) `webhook-signature` lists one signature per secret, space-separated, as Standard Webhooks allows: a
 * receiver that still holds the old secret keeps verifying until it is given the new one.
 */
export function standardWebhookHeaders(secrets: string | readonly string[], id: string, timestampSeconds: number, body: string): Record<string, string> {
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': list.map((secret) => signStandardWebhook(secret, id, timestampSeconds, body)).join(' '),
  };
}

/** The secrets a callback signs with at `now`: its own, and the one it replaced while that one's overlap lasts. */
export function signingSecretsOf(
  callback: { signingSecretEnc: string; previousSigningSecretEnc: string | null; previousSigningSecretUntil: Date | null },
  open: (sealed: string) => string,
  now: Date,
): string[] {
  const secrets = [open(callback.signingSecretEnc)];
  if (callback.previousSigningSecretEnc && callback.previousSigningSecretUntil && callback.previousSigningSecretUntil > now) {
    secrets.push(open(callback.previousSigningSecretEnc));
  }
  return secrets;
}
