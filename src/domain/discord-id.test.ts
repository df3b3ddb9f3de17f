import { describe, expect, it } from 'vitest';
import { discordIdIn } from './discord-id.js';

describe('discordIdIn', () => {
  // An id sent as a JSON number (written by hand here: a JS number literal this large would lose digits already).
  const body = `${JSON.stringify({ data: { user: { platform_id: '160105994217586689', name: 'cooluser' } }, short: '123' }).slice(0, -1)},"number":160105994217586689}`;
  it('reads a snowflake at the path', () => {
    expect(discordIdIn(body, 'data.user.platform_id')).toBe('160105994217586689');
    expect(discordIdIn(body, '$.data.user.platform_id')).toBe('160105994217586689');
  });
  it('refuses what is not a Discord id: missing, too short, a JSON number that lost its digits, no path, no JSON', () => {
    expect(discordIdIn(body, 'data.user.id')).toBeNull();
    expect(discordIdIn(body, 'short')).toBeNull();
    expect(discordIdIn(body, 'data.user.name')).toBeNull();
    expect(discordIdIn(body, null)).toBeNull();
    expect(discordIdIn('not json', 'a')).toBeNull();
    // 160105994217586689 is not exactly representable: JSON.parse gives 160105994217586690, a different user.
    expect(discordIdIn(body, 'number')).not.toBe('160105994217586689');
  });
});
