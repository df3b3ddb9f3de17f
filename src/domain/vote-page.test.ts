import { describe, expect, it } from 'vitest';
import { addressHash, deliveryWords, namesClose, playerNameProblem, siteState, siteStateWords, spanWords, voteUrlFor } from './vote-page.js';

describe('vote page words', () => {
  it('says a span as a player reads it', () => {
    expect(spanWords(20_000)).toBe('less than a minute');
    expect(spanWords(45 * 60_000)).toBe('45 min');
    expect(spanWords(2 * 3_600_000)).toBe('2 h');
    expect(spanWords(3 * 3_600_000 + 12 * 60_000)).toBe('3 h 12 min');
    expect(spanWords(11 * 3_600_000 + 59 * 60_000)).toBe('11 h');
    expect(spanWords(3 * 86_400_000)).toBe('3 days');
  });

  it('tells where a player stands on a site', () => {
    const now = new Date('2026-05-01T12:00:00Z');
    expect(siteStateWords(siteState(null, null, now))).toBe('vote now');
    const voted = new Date('2026-05-01T10:00:00Z');
    expect(siteStateWords(siteState(voted, new Date('2026-05-01T22:00:00Z'), now))).toBe('you can vote again in 10 h');
    expect(siteStateWords(siteState(voted, new Date('2026-05-01T11:00:00Z'), now))).toBe('vote now');
    // No cooldown known: a vote today reads as done, an older one as "vote now".
    expect(siteStateWords(siteState(voted, null, now))).toBe('voted ✓ 2 h ago');
    expect(siteStateWords(siteState(new Date('2026-04-29T10:00:00Z'), null, now))).toBe('vote now');
  });

  it('words a delivery without anything secret', () => {
    const at = new Date('2026-05-01T12:03:00Z');
    const time = () => '12:03';
    expect(deliveryWords({ target: 'Survival', status: 'delivered', at }, time)).toBe('delivered to Survival 12:03');
    expect(deliveryWords({ target: 'Survival', status: 'waiting_online', at: null }, time)).toBe('waiting until you are online on Survival');
    expect(deliveryWords({ target: 'Survival', status: 'failed', at: null, reason: 'the server answered 503' }, time)).toBe('failed: the server answered 503');
  });

  it('takes a player name of 1 to 32 characters without control characters or outer spaces', () => {
    expect(playerNameProblem('Steve')).toBeNull();
    expect(playerNameProblem('')).not.toBeNull();
    expect(playerNameProblem('x'.repeat(33))).not.toBeNull();
    expect(playerNameProblem('a\nb')).not.toBeNull();
    expect(playerNameProblem(' Steve')).not.toBeNull();
  });

  it("fills {{player}} into a site's vote URL, encoded", () => {
    expect(voteUrlFor('https://topg.org/in-1-{{player}}', 'Steve')).toBe('https://topg.org/in-1-Steve');
    expect(voteUrlFor('https://x.example/?u={{player}}', 'a b&c')).toBe('https://x.example/?u=a%20b%26c');
    expect(voteUrlFor('https://x.example/vote', null)).toBe('https://x.example/vote');
  });
});

describe('name repair', () => {
  it('finds names close when they differ in case, in the Bedrock prefix, by a prefix, or by at most two letters', () => {
    expect(namesClose('steve', 'Steve', null)).toBe(true);
    expect(namesClose('Steve', '.Steve', '.')).toBe(true);
    expect(namesClose('.Steve', 'Steve', '.')).toBe(true);
    expect(namesClose('Steve', '.Steve', null)).toBe(true); // ".steve" edits to "steve" in one letter
    expect(namesClose('Notch_4', 'Notch_42', null)).toBe(true);
    expect(namesClose('Stve', 'Steve', null)).toBe(true);
    expect(namesClose('Steev', 'Steve', null)).toBe(true);
    expect(namesClose('Zed', 'Steve', null)).toBe(false);
    expect(namesClose('Alexander', 'Alexandra_X', null)).toBe(false);
    expect(namesClose('', 'Steve', null)).toBe(false);
  });

  it("hashes an address with the day's salt: the same day meets, another day or address does not, and the address is not in it", () => {
    const secret = Buffer.from('test-secret-0123456789');
    const morning = new Date('2026-05-01T08:00:00Z');
    const evening = new Date('2026-05-01T23:00:00Z');
    const next = new Date('2026-05-02T01:00:00Z');
    expect(addressHash(secret, '203.0.113.7', morning)).toBe(addressHash(secret, '203.0.113.7', evening));
    expect(addressHash(secret, '203.0.113.7', morning)).not.toBe(addressHash(secret, '203.0.113.7', next));
    expect(addressHash(secret, '203.0.113.7', morning)).not.toBe(addressHash(secret, '203.0.113.8', morning));
    expect(addressHash(secret, '203.0.113.7', morning)).not.toContain('203');
  });
});
