import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable, startTestApp, type TestApp } from '../kit/app.js';

describe.skipIf(databaseUnavailable)('GET /v1/templates', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.stop());

  it('is public and lists the real-site catalogue in the interface shape', async () => {
    const res = await app.request('GET', '/v1/templates');
    expect(res.status).toBe(200);
    expect(res.body.meta).toBeUndefined();
    const templates = res.body.data.templates;
    const slugs = templates.map((t: { slug: string }) => t.slug);
    for (const slug of [
      'hytale-servers-pro',
      'hytalecharts',
      'hylist',
      'topgg',
      'topgg-legacy',
      'discordbotlist',
      'discords',
      'discord-place',
      'discordforge',
      'top-server',
      'topg',
    ]) {
      expect(slugs).toContain(slug);
    }
    for (const t of templates) {
      expect(t).toMatchObject({
        id: expect.any(String),
        slug: expect.any(String),
        name: expect.any(String),
        description: expect.any(String),
        website_url: expect.stringMatching(/^https:\/\//),
        auth_method: expect.stringMatching(/^(header|url_path|query|hmac|votifier)$/),
        auth_field: expect.any(String),
        default_votee_path: expect.any(String),
        payload_example: expect.any(Object),
        setup_instructions: expect.any(String),
      });
    }
    const topgg = templates.find((t: { slug: string }) => t.slug === 'topgg');
    expect(topgg).toMatchObject({
      auth_method: 'hmac',
      auth_field: 'x-topgg-signature',
      default_votee_path: 'data.user.name',
      event_path: 'type',
      vote_events: ['vote.create'],
      test_events: ['webhook.test'],
    });
    const charts = templates.find((t: { slug: string }) => t.slug === 'hytalecharts');
    expect(charts.auth_timestamp_field).toBe('X-HytaleCharts-Timestamp');
  });

  it('is also served by GraphQL without a key', async () => {
    const res = await app.request('POST', '/graphql', { body: { query: '{ templates { slug authMethod defaultVoteePath } }' } });
    expect(res.status).toBe(200);
    expect(res.body.data.templates.length).toBeGreaterThanOrEqual(11);
  });
});
