// Encrypts stored secrets (provider secrets, callback secrets) with SECRET_KEY: AES-256-GCM, authenticated.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config/config.js';

export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

const VERSION = 'v1';
/**
 * Opened secrets remembered, by their sealed text: the hot paths open the same few for every vote (a callback's
 * token, a provider's secret), and a decryption cost the delivery thread about 3% of its time per Votifier vote
 * (bench/marks.ts). A sealed text never changes meaning (a new secret is sealed anew, with a new IV), so nothing in
 * it goes stale; the oldest is let go past this many.
 */
const OPENED_KEPT = 1_024;

export function createSecretBox(secretKey: string): SecretBox {
  // SHA-256 turns any operator-chosen key text into the 32 bytes AES-256 needs.
  const key = createHash('sha256').update(secretKey, 'utf8').digest();
  const opened = new Map<string, string>();
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join(':');
    },
    open(sealed) {
      const known = opened.get(sealed);
      if (known !== undefined) return known;
      const [version, iv, tag, body] = sealed.split(':');
      if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('Unreadable sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      const plain = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      if (opened.size >= OPENED_KEPT) opened.delete(opened.keys().next().value!);
      opened.set(sealed, plain);
      return plain;
    },
  };
}

/**
 * SECRET_KEY from the environment or, for embedded SQLite, a key generated once into the data folder
 * (`secret.key`, mode 0600) so a fresh install needs no set-up. PostgreSQL requires SECRET_KEY (config checks).
 */
export function resolveSecretKey(config: Pick<Config, 'secretKey' | 'dataDir'>): string {
  if (config.secretKey) return config.secretKey;
  if (!config.dataDir) throw new Error('SECRET_KEY is required');
  mkdirSync(config.dataDir, { recursive: true });
  const file = join(config.dataDir, 'secret.key');
  if (!existsSync(file)) {
    try {
      writeFileSync(file, randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err; // another process made it first
    }
    chmodSync(file, 0o600);
  }
  return readFileSync(file, 'utf8').trim();
}
