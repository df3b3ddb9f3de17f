import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable, startTestApp, uniqueSlug, type TestApp, type TestOrg } from '../kit/app.js';
import { startReceiver, type Receiver } from '../kit/receiver.js';

describe.skipIf(databaseUnavailable)('organization (GET/PATCH /v1/organization, test-chat-webhook)', () => {
  let app: TestApp;
  let org: TestOrg;
  let receiver: Receiver;

  beforeAll(async () => {
    app = await startTestApp();
    org = await app.createOrg({ plan: 'growth' });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await app?.stop();
  });

  it('returns the interface shape with settings and usage', async () => {
    const res = await app.request('GET', '/v1/organization', { key: org.key });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe(res.body.meta.request_id);
    expect(res.body.data).toEqual({
      id: org.id,
      slug: org.slug,
      name: 'Test Org',
      plan: 'growth',
      status: 'active',
      settings: {
        chat_webhook_url: null,
        chat_admin_webhook_url: null,
        chat_notifications_enabled: true,
        chat_message_type: 'simple',
        chat_message_template: expect.any(String),
        chat_embed_template: null,
        admin_daily_summary: false,
        admin_weekly_summary: false,
        admin_vote_spike_alerts: false,
        admin_permanent_fail_alerts: false,
        admin_usage_warnings: false,
        server_callback_url: null,
        time_zone: 'UTC',
        milestones: [],
        vote_party_every: null,
        vote_party_provider: null,
        reminders_enabled: false,
        chat_milestone_template: null,
        chat_vote_party_template: null,
        bedrock_prefix: null,
        discord_bot_token_set: false,
        discord_guild_id: null,
        leaderboard_posts: null,
        vote_page: null,
      },
      usage: { votes_this_month: 0, votes_limit: 10_000, providers_count: 0, providers_limit: 10 },
    });
  });

  it('updates only the fields given', async () => {
    const embed = {
      color: 3447003,
      title: 'Vote by {{voter_name}}',
      fields: [{ name: 'Site', value: '{{provider_name}}', inline: true }],
      footer: { text: 'thanks' },
    };
    const res = await app.request('PATCH', '/v1/organization', {
      key: org.key,
      body: { name: 'Renamed', settings: { chat_message_type: 'embed', chat_embed_template: embed, admin_daily_summary: true } },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.name).toBe('Renamed');
    expect(res.body.data.slug).toBe(org.slug);
    expect(res.body.data.settings.chat_message_type).toBe('embed');
    expect(res.body.data.settings.chat_embed_template).toEqual(embed);
    expect(res.body.data.settings.admin_daily_summary).toBe(true);
    expect(res.body.data.settings.chat_notifications_enabled).toBe(true);
    const again = await app.request('GET', '/v1/organization', { key: org.key });
    expect(again.body.data).toEqual(res.body.data);
  });

  it('clears a nullable setting with null', async () => {
    await app.request('PATCH', '/v1/organization', { key: org.key, body: { settings: { chat_webhook_url: 'https://discord.com/api/webhooks/1/abc' } } });
    const res = await app.request('PATCH', '/v1/organization', { key: org.key, body: { settings: { chat_webhook_url: null } } });
    expect(res.status).toBe(200);
    expect(res.body.data.settings.chat_webhook_url).toBeNull();
  });

  it('rejects bad input with VALIDATION_ERROR naming each field, changing nothing', async () => {
    const before = (await app.request('GET', '/v1/organization', { key: org.key })).body.data;
    const cases: [unknown, string[]][] = [
      [{ name: 5 }, ['name']],
      [{ name: '' }, ['name']],
      [{ slug: 'Not A Slug!' }, ['slug']],
      [{ settings: 'x' }, ['settings']],
      [{ settings: { chat_notifications_enabled: 'yes', chat_message_type: 'fancy' } }, ['settings.chat_message_type', 'settings.chat_notifications_enabled']],
      [{ settings: { chat_message_type: 'fancy' } }, ['settings.chat_message_type']],
      [{ settings: { chat_webhook_url: 'ftp://example.com/x' } }, ['settings.chat_webhook_url']],
      [{ settings: { chat_message_template: '' } }, ['settings.chat_message_template']],
      [{ settings: { chat_embed_template: { color: 'red' } } }, ['settings.chat_embed_template.color']],
      [[1, 2], ['body']],
    ];
    for (const [body, fields] of cases) {
      const res = await app.request('PATCH', '/v1/organization', { key: org.key, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(fields);
      expect(res.body.meta.request_id).toBe(res.headers.get('x-request-id'));
    }
    const after = (await app.request('GET', '/v1/organization', { key: org.key })).body.data;
    expect(after).toEqual(before);
  });

  it('rejects malformed JSON and oversized bodies in the envelope', async () => {
    const bad = await app.request('PATCH', '/v1/organization', { key: org.key, rawBody: '{"name": ', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    const huge = await app.request('PATCH', '/v1/organization', {
      key: org.key,
      rawBody: JSON.stringify({ name: 'x'.repeat(1_100_000) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    const current = await app.request('GET', '/v1/organization', { key: org.key });
    expect(current.body.data.name).not.toMatch(/^x+$/);
  });

  it('keeps slugs unique with details', async () => {
    const other = await app.createOrg();
    const res = await app.request('PATCH', '/v1/organization', { key: org.key, body: { slug: other.slug } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'slug', message: expect.stringContaining('taken') }] });
    const fresh = uniqueSlug('renamed');
    const ok = await app.request('PATCH', '/v1/organization', { key: org.key, body: { slug: fresh } });
    expect(ok.status).toBe(200);
    expect(ok.body.data.slug).toBe(fresh);
  });

  it('gates Growth+ settings for starter organizations', async () => {
    const starter = await app.createOrg({ plan: 'starter' });
    for (const [settings, field] of [
      [{ chat_message_type: 'embed' }, 'chat_message_type'],
      [{ chat_embed_template: { title: 'x' } }, 'chat_embed_template'],
      [{ chat_admin_webhook_url: 'https://discord.com/api/webhooks/1/a' }, 'chat_admin_webhook_url'],
      [{ admin_weekly_summary: true }, 'admin_weekly_summary'],
      [{ admin_usage_warnings: true }, 'admin_usage_warnings'],
    ] as const) {
      const res = await app.request('PATCH', '/v1/organization', { key: starter.key, body: { settings } });
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({
        code: 'PLAN_UPGRADE_REQUIRED',
        details: { required_plan: 'growth', current_plan: 'starter', field },
      });
    }
    // Turning a Growth+ feature off, and every all-plan setting, is fine on starter.
    const ok = await app.request('PATCH', '/v1/organization', {
      key: starter.key,
      body: { settings: { admin_weekly_summary: false, chat_message_type: 'simple', chat_message_template: '{voter_name} voted!' } },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.settings.chat_message_template).toBe('{voter_name} voted!');
  });

  it('refuses writes with a read key and answers reads', async () => {
    const read = await app.request('GET', '/v1/organization', { key: org.readKey });
    expect(read.status).toBe(200);
    const write = await app.request('PATCH', '/v1/organization', { key: org.readKey, body: { name: 'nope' } });
    expect(write.status).toBe(403);
    expect(write.body.error.code).toBe('INSUFFICIENT_SCOPE');
  });

  it('sends a Discord-compatible simple test message', async () => {
    receiver.script({ status: 204 });
    const before = receiver.requests.length;
    const res = await app.request('POST', '/v1/organization/test-chat-webhook', {
      key: org.key,
      body: { webhook_url: `${receiver.url}/api/webhooks/1/token`, message_template: '{{voter_name}} voted on {provider_name} @everyone' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ success: true, message: expect.any(String) });
    const sent = receiver.requests[before];
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/api/webhooks/1/token');
    expect(sent.headers['content-type']).toContain('application/json');
    expect(sent.json).toEqual({ content: '[TEST] TestVoter voted on Test Provider @everyone', allowed_mentions: { parse: [] } });
  });

  it('sends an embed test message with a visible test marker', async () => {
    receiver.script({ status: 200, body: { id: '1' } });
    const before = receiver.requests.length;
    const res = await app.request('POST', '/v1/organization/test-chat-webhook', {
      key: org.key,
      body: {
        webhook_url: `${receiver.url}/hook`,
        message_type: 'embed',
        embed_template: { title: 'Vote from {{voter_name}}', description: 'on {{provider_name}} at {{received_at}}', footer: { text: 'Acme' } },
      },
    });
    expect(res.status).toBe(200);
    const embed = receiver.requests[before].json.embeds[0];
    expect(embed.title).toBe('Vote from TestVoter');
    expect(embed.description).toMatch(/^on Test Provider at \d{4}-\d{2}-\d{2}T/);
    expect(embed.footer.text).toContain('Test message');
    expect(receiver.requests[before].json.allowed_mentions).toEqual({ parse: [] });
  });

  it("answers WEBHOOK_ERROR with the platform's own reason", async () => {
    receiver.script({ status: 404, body: { message: 'Unknown Webhook', code: 10015 } });
    const res = await app.request('POST', '/v1/organization/test-chat-webhook', {
      key: org.key,
      body: { webhook_url: `${receiver.url}/gone`, message_template: 'hi' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('WEBHOOK_ERROR');
    expect(res.body.error.details.error).toContain('Unknown Webhook');
  });

  it('validates the test-message body', async () => {
    const missing = await app.request('POST', '/v1/organization/test-chat-webhook', { key: org.key, body: { message_template: 'x' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details).toEqual([{ field: 'webhook_url', message: 'is required' }]);
    const noTemplate = await app.request('POST', '/v1/organization/test-chat-webhook', { key: org.key, body: { webhook_url: receiver.url } });
    expect(noTemplate.status).toBe(400);
    expect(noTemplate.body.error.details[0].field).toBe('message_template');
    const noEmbed = await app.request('POST', '/v1/organization/test-chat-webhook', {
      key: org.key,
      body: { webhook_url: receiver.url, message_type: 'embed' },
    });
    expect(noEmbed.body.error.details[0].field).toBe('embed_template');
  });
});

describe.skipIf(databaseUnavailable)('SSRF guard on organization URLs (ALLOW_PRIVATE_TARGETS=false)', () => {
  let app: TestApp;
  let org: TestOrg;
  let receiver: Receiver;

  beforeAll(async () => {
    app = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'false' });
    org = await app.createOrg({ plan: 'growth' });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await app?.stop();
  });

  it('refuses private and loopback targets for the test message, sending nothing', async () => {
    for (const url of [
      receiver.url,
      'http://localhost:9/x',
      'http://10.0.0.1/x',
      'http://169.254.169.254/latest',
      'http://[::1]:9/x',
      'http://[::ffff:127.0.0.1]/x',
      'file:///etc/passwd',
    ]) {
      const res = await app.request('POST', '/v1/organization/test-chat-webhook', { key: org.key, body: { webhook_url: url, message_template: 'x' } });
      expect(res.status, url).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details[0].field).toBe('webhook_url');
    }
    expect(receiver.requests).toHaveLength(0);
  });

  it('refuses private targets in settings', async () => {
    const res = await app.request('PATCH', '/v1/organization', {
      key: org.key,
      body: { settings: { chat_webhook_url: 'http://192.168.1.10/hook', server_callback_url: 'http://127.0.0.1:8080/' } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['settings.chat_webhook_url', 'settings.server_callback_url']);
  });
});
