// Signs a delivery the way each voting site does (the README's Inbound hooks), for hook tests and benchmarks.
import { createHmac } from 'node:crypto';
import type { SignatureFormat } from '../../src/modules/providers/templates/catalogue.js';

export function hmacHex(secret: string, content: string): string {
  return createHmac('sha256', secret).update(content).digest('hex');
}

/** Headers that authenticate `body` for a provider using `format` (hmac) — header name as the site sends it. */
export function signatureHeaders(
  format: SignatureFormat,
  secret: string,
  body: string,
  options: { header: string; timestampHeader?: string | null; nowSeconds?: number },
): Record<string, string> {
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  switch (format) {
    case 'hex':
      return { [options.header]: hmacHex(secret, body) };
    case 'sha256_hex':
      if (options.timestampHeader) {
        return { [options.header]: `sha256=${hmacHex(secret, `${now}.${body}`)}`, [options.timestampHeader]: String(now) };
      }
      return { [options.header]: `sha256=${hmacHex(secret, body)}` };
    case 'topgg':
      return { [options.header]: `t=${now},v1=${hmacHex(secret, `${now}.${body}`)}` };
  }
}
