import { describe, it, expect } from 'vitest';
import { createSecretBox } from './secret-box.js';

const box = createSecretBox('test-secret-key-0123456789abcdef');
const plain = 'whs_super-secret-provider-value-42';

/** Replaces the character at `index` with a different base64url character. */
function flip(text: string, index: number): string {
  const replacement = text[index] === 'A' ? 'B' : 'A';
  return text.slice(0, index) + replacement + text.slice(index + 1);
}

describe('createSecretBox', () => {
  it('opens what it sealed', () => {
    expect(box.open(box.seal(plain))).toBe(plain);
  });

  it('round-trips empty, unicode and long text', () => {
    for (const text of ['', 'ünïcødé 🎉 секрет', 'x'.repeat(10_000), 'with:colons:inside']) {
      expect(box.open(box.seal(text))).toBe(text);
    }
  });

  it('a second box with the same key opens it', () => {
    const other = createSecretBox('test-secret-key-0123456789abcdef');
    expect(other.open(box.seal(plain))).toBe(plain);
  });

  it('the sealed text does not contain the plaintext', () => {
    const sealed = box.seal(plain);
    expect(sealed).not.toContain(plain);
    expect(sealed).not.toContain('super-secret');
    expect(sealed).not.toContain(Buffer.from(plain).toString('base64'));
    expect(sealed.startsWith('v1:')).toBe(true);
    expect(sealed.split(':')).toHaveLength(4);
  });

  it('two seals of the same text differ', () => {
    const a = box.seal(plain);
    const b = box.seal(plain);
    expect(a).not.toBe(b);
    expect(box.open(a)).toBe(plain);
    expect(box.open(b)).toBe(plain);
  });

  it('throws when the body is tampered with', () => {
    const sealed = box.seal(plain);
    const [version, iv, tag, body] = sealed.split(':');
    // The first character of the body carries six real bits, so flipping it always changes the ciphertext.
    expect(() => box.open([version, iv, tag, flip(body, 0)].join(':'))).toThrow();
    expect(() => box.open([version, iv, tag, flip(body, Math.floor(body.length / 2))].join(':'))).toThrow();
    expect(() => box.open([version, iv, tag, body.slice(0, -4)].join(':'))).toThrow();
  });

  it('throws when the tag or iv is tampered with', () => {
    const [version, iv, tag, body] = box.seal(plain).split(':');
    expect(() => box.open([version, iv, flip(tag, 0), body].join(':'))).toThrow();
    expect(() => box.open([version, flip(iv, 0), tag, body].join(':'))).toThrow();
  });

  it('opens the same sealed text again (remembered), and one tampered with after it was opened still throws', () => {
    const sealed = box.seal(plain);
    expect(box.open(sealed)).toBe(plain);
    expect(box.open(sealed)).toBe(plain);
    const [version, iv, tag, body] = sealed.split(':');
    expect(() => box.open([version, iv, tag, flip(body, 0)].join(':'))).toThrow();
  });

  it('still opens a secret after more than it remembers were opened', () => {
    const first = box.seal('first');
    expect(box.open(first)).toBe('first');
    for (let i = 0; i < 1_100; i++) expect(box.open(box.seal(`s${i}`))).toBe(`s${i}`);
    expect(box.open(first)).toBe('first');
  });

  it('a box with another key cannot open what this one opened', () => {
    const sealed = box.seal(plain);
    expect(box.open(sealed)).toBe(plain);
    expect(() => createSecretBox('another-secret-key-0123456789abcd').open(sealed)).toThrow();
  });

  it('a box with another key cannot open it', () => {
    const other = createSecretBox('another-secret-key-0123456789abcd');
    expect(() => other.open(box.seal(plain))).toThrow();
  });

  it.each(['', 'garbage', 'v2:a:b:c', 'v1::tag:body', 'v1:iv::body', 'v1:iv:tag'])('refuses the malformed text %j', (sealed) => {
    expect(() => box.open(sealed)).toThrow();
  });
});
