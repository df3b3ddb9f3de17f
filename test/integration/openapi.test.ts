// GET /v1/openapi.json against the running service: a valid OpenAPI 3.1 document (checked by
// @seriousme/openapi-schema-validator) naming every REST and hook route, and a scenario that calls every
// operation it lists with a success and many with an error, each answer (status, media type, body) validated
// with ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1) against the operation's schema, each request body
// against its request schema. A route added without a call here, or an answer that drifts, fails. The reference
// page at /v1/reference is checked to load nothing from another host (in Chromium when there is one).
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { Validator } from '@seriousme/openapi-schema-validator';
import { chromium } from 'playwright-core';
import { databaseUnavailable, startTestApp, type ApiResponse, type TestApp, type TestOrg } from '../kit/app.js';
import { startReceiver, type Receiver } from '../kit/receiver.js';
import { until } from '../kit/wait.js';
import { HOOK_ROUTES, REST_ROUTES } from '../../rest-compat/router.js';
import { MOUNTS, openApiPath } from '../../rest-compat/openapi.js';

type Doc = { paths: Record<string, Record<string, any>>; components: Record<string, Record<string, any>> };

const addFormats = ((addFormatsPlugin as { default?: unknown }).default ?? addFormatsPlugin) as (ajv: Ajv2020) => Ajv2020;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
const today = () => new Date().toISOString().slice(0, 10);

interface Call {
  key?: string;
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

describe.skipIf(databaseUnavailable)('OpenAPI document and the answers it describes', () => {
  let app: TestApp;
  let org: TestOrg;
  let receiver: Receiver;
  let doc: Doc;
  const ajv = addFormats(new Ajv2020({ allErrors: true, allowUnionTypes: true }));
  const compiled = new Map<string, ValidateFunction>();
  const succeeded = new Set<string>();
  const failed = new Map<string, Set<number>>();

  /** A schema of the document as ajv sees it: its components under the `openapi` schema's $defs. */
  const validator = (id: string, schema: unknown): ValidateFunction => {
    let fn = compiled.get(id);
    if (!fn) compiled.set(id, (fn = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"openapi#/$defs/')))));
    return fn;
  };
  const deref = (object: any) => (object?.$ref ? doc.components.responses[object.$ref.split('/').pop()] : object);

  /** Calls `method path` (an OpenAPI path template) and checks the answer and the request against the document. */
  async function call(method: string, template: string, c: Call = {}): Promise<ApiResponse> {
    const path = template.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(c.params?.[name] ?? `{${name}}`));
    const url = `${path}${c.query ? `?${new URLSearchParams(c.query)}` : ''}`;
    const res = await app.request(method, url, { key: c.key, body: c.body, rawBody: c.rawBody, headers: c.headers });
    const name = `${method} ${template}`;
    const op = doc.paths[template]?.[method.toLowerCase()];
    expect(op, `${name} is in the document`).toBeDefined();
    const response = deref(op.responses[String(res.status)]);
    expect(response, `${name} answered ${res.status}, which the document does not list: ${res.text.slice(0, 300)}`).toBeDefined();
    const type = (res.headers.get('content-type') ?? '').split(';')[0].trim();
    expect(Object.keys(response.content ?? {}), `${name} ${res.status}: media type`).toContain(type);
    if (type === 'application/json') {
      const check = validator(`${name} ${res.status}`, response.content[type].schema);
      expect(check(res.body) ? [] : check.errors, `${name} ${res.status}: ${res.text.slice(0, 400)}`).toEqual([]);
    }
    expect(res.headers.get('x-request-id')).toBeTruthy();
    if (res.status < 300) {
      succeeded.add(name);
      // What a client sent successfully is what the document says it may send.
      const declared = new Set((op.parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => p.name));
      const free = (op.parameters ?? []).some((p: any) => p.in === 'query' && p.schema?.type === 'object');
      if (!free) for (const q of Object.keys(c.query ?? {})) expect([...declared], `${name}: query parameter ${q}`).toContain(q);
      const requestSchema = op.requestBody?.content?.['application/json']?.schema;
      if (c.body !== undefined && requestSchema) {
        const check = validator(`${name} request`, requestSchema);
        expect(check(c.body) ? [] : check.errors, `${name}: request body ${JSON.stringify(c.body)}`).toEqual([]);
      }
    } else {
      failed.set(name, (failed.get(name) ?? new Set()).add(res.status));
    }
    return res;
  }

  const hookPath = (webhookUrl: string) => new URL(webhookUrl).pathname.split('/').filter(Boolean);

  beforeAll(async () => {
    app = await startTestApp({ DELIVERY_POLL_MS: '50' });
    receiver = await startReceiver({ status: 204 });
    org = await app.createOrg({ plan: 'business' });
    const res = await app.request('GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body;
    ajv.addSchema(JSON.parse(JSON.stringify({ $id: 'openapi', $defs: doc.components.schemas }).replaceAll('"#/components/schemas/', '"openapi#/$defs/')));
  });
  afterAll(async () => {
    await app?.stop();
    await receiver?.close();
  });

  it('is a valid OpenAPI 3.1 document that lists every REST route and hook route', async () => {
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect((doc as unknown as { openapi: string }).openapi).toMatch(/^3\.1\./);
    const listed = (mount: string, routes: typeof REST_ROUTES) => routes.map((r) => `${r.method} ${mount}${openApiPath(r.path)}`);
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`));
    expect(documented).toEqual(expect.arrayContaining([...listed(MOUNTS.rest, REST_ROUTES), ...listed(MOUNTS.hooks, HOOK_ROUTES)]));
    await call('GET', '/v1/openapi.json');
  });

  it('every operation answers what the document says', async () => {
    const full = { key: org.key };
    const read = { key: org.readKey };
    await call('GET', '/v1/templates');

    // Organization and keys
    await call('GET', '/v1/organization', read);
    await call('PATCH', '/v1/organization', {
      ...full,
      body: { name: 'Renamed', settings: { chat_webhook_url: `${receiver.url}/chat`, admin_daily_summary: true } },
    });
    await call('POST', '/v1/organization/test-chat-webhook', {
      ...full,
      body: { webhook_url: `${receiver.url}/chat-test`, message_type: 'simple', message_template: '{{voter_name}} voted' },
    });
    await call('GET', '/v1/api-keys', read);
    const key = (await call('POST', '/v1/api-keys', { ...full, body: { name: 'ci', scope: 'read' } })).body.data;
    await call('DELETE', '/v1/api-keys/{id}', { ...full, params: { id: key.id } });

    // A plugin token first, so the votes below wait for it too
    const plugin = (await call('POST', '/v1/plugin-tokens', { ...full, body: { name: 'Survival' } })).body.data;

    // Providers, one per way a hook names its secret
    const provider = async (body: Record<string, unknown>) => (await call('POST', '/v1/providers', { ...full, body })).body.data;
    const site = await provider({ key: 'site', name: 'Site', auth_method: 'url_path', auth_field: 's', votee_path: 'user' });
    const hdr = await provider({ key: 'hdr', name: 'Header', auth_method: 'header', auth_field: 'Authorization', votee_path: 'user' });
    const qry = await provider({ key: 'qry', name: 'Query', auth_method: 'query', auth_field: 'secret', votee_path: 'user' });
    const pq = await provider({ key: 'pq', name: 'Path query', auth_method: 'url_path', auth_field: 's', votee_path: 'user', payload_source: 'query' });
    const frm = await provider({ key: 'frm', name: 'Form', auth_method: 'header', auth_field: 'Authorization', votee_path: 'user', payload_source: 'form' });
    const mc = await provider({ key: 'mc', name: 'Minecraft lists', auth_method: 'votifier' });
    expect(mc.votifier).toBeDefined();
    await provider({ key: 'spare', name: 'Spare', template: 'topgg', auth_value: 'whs_secret_0123456789abcdef', api_token: 'topgg-api-token' });
    await call('GET', '/v1/providers', read);
    for (const k of ['site', 'mc', 'spare']) await call('GET', '/v1/providers/{key}', { ...read, params: { key: k } });
    await call('PATCH', '/v1/providers/{key}', { ...full, params: { key: 'site' }, body: { name: 'Site 2', body_timestamp_path: null } });
    await call('POST', '/v1/providers/{key}/regenerate-secret', { ...full, params: { key: 'spare' } });
    await call('POST', '/v1/providers/{key}/test-vote', { ...full, params: { key: 'site' }, body: { voter_name: 'OpenApiTester' } });

    // Callbacks (http and votifier) before the votes, so there are deliveries to show
    await call('GET', '/v1/callbacks/variables', read);
    await call('GET', '/v1/callbacks/kinds', read);
    await call('GET', '/v1/discord/role-grants', read);
    const cb = (
      await call('POST', '/v1/callbacks', { ...full, body: { name: 'Game', url: `${receiver.url}/cb`, payload_template: { player: '{{voter_name}}' } } })
    ).body.data;
    const vcb = (
      await call('POST', '/v1/callbacks', {
        ...full,
        body: { name: 'MC', kind: 'votifier', host: '127.0.0.1', port: 8192, service_name: 'VoteRelay', token: 'abcdefgh12345678', enabled: false },
      })
    ).body.data;
    expect(vcb).toMatchObject({ kind: 'votifier', has_token: true });

    // Votes through all four hook routes
    const [, slug, , secret] = hookPath(site.webhook_url);
    const first = await call('POST', '/hooks/{org}/{provider}/{secret}', { params: { org: slug, provider: 'site', secret }, body: { user: 'Alice' } });
    expect(first.body.data).toMatchObject({ received: true, duplicate: false });
    const again = await call('POST', '/hooks/{org}/{provider}/{secret}', { params: { org: slug, provider: 'site', secret }, body: { user: 'Alice' } });
    expect(again.body.data).toMatchObject({ duplicate: true });
    await call('POST', '/hooks/{org}/{provider}', {
      params: { org: slug, provider: 'hdr' },
      body: { user: 'Bob' },
      headers: { authorization: hdr.auth_value },
    });
    await call('GET', '/hooks/{org}/{provider}', { params: { org: slug, provider: 'qry' }, query: { secret: qry.auth_value, user: 'Carol' } });
    const pqSecret = hookPath(pq.webhook_url)[3];
    await call('GET', '/hooks/{org}/{provider}/{secret}', { params: { org: slug, provider: 'pq', secret: pqSecret }, query: { user: 'Dave' } });
    await call('POST', '/hooks/{org}/{provider}', {
      params: { org: slug, provider: 'frm' },
      rawBody: 'user=Eve',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: frm.auth_value },
    });
    await call('POST', '/hooks/{org}/{provider}/{secret}', { params: { org: slug, provider: 'site', secret: 'wrong' }, body: { user: 'Mallory' } });
    await call('POST', '/hooks/{org}/{provider}/{secret}', { params: { org: slug, provider: 'nope', secret }, body: { user: 'Mallory' } });
    const voteId = first.body.data.vote_id as string;

    // The rest of the callback routes
    await call('GET', '/v1/callbacks', { ...read, query: { include_disabled: 'true' } });
    await call('GET', '/v1/callbacks/{id}', { ...read, params: { id: cb.id } });
    await call('GET', '/v1/callbacks/{id}', { ...read, params: { id: vcb.id } });
    await call('PATCH', '/v1/callbacks/{id}', { ...full, params: { id: cb.id }, body: { name: 'Game 2', max_per_second: 5 } });
    await call('POST', '/v1/callbacks/{id}/test', { ...full, params: { id: cb.id } });
    await call('POST', '/v1/callbacks/{id}/replay', { ...full, params: { id: cb.id }, body: { since: today(), only_failed: true } });
    await call('POST', '/v1/callbacks/{id}/rotate-secret', { ...full, params: { id: cb.id } });

    // Votes
    await call('GET', '/v1/votes', { ...read, query: { limit: '2', page: '1' } });
    await call('GET', '/v1/votes', { ...read, query: { provider: 'site', chat_status: 'sent' } });
    await call('GET', '/v1/votes/{id}', { ...read, params: { id: voteId } });
    await call('GET', '/v1/votes/{id}/deliveries', { ...read, params: { id: voteId } });
    await call('POST', '/v1/votes/{id}/redeliver', { ...full, params: { id: voteId } });
    // The hook request log (entries are written in batches: wait for the vote's)
    await until(
      async () =>
        (await call('GET', '/v1/providers/{key}/requests', { ...read, params: { key: 'site' }, query: { outcome: 'accepted', limit: '5' } })).body.data.requests
          .length,
      (n) => n > 0,
    );
    await call('GET', '/v1/hook-requests', { ...read, query: { page: '1' } });
    const csv = await call('GET', '/v1/votes/export', { ...read, query: { from: today() } });
    expect(csv.text.split('\n')[0]).toContain('voter_name');

    // Statistics
    await call('GET', '/v1/stats/dashboard', read);
    await call('GET', '/v1/stats/trend', { ...read, query: { granularity: 'day' } });
    await call('GET', '/v1/stats/by-provider', read);
    await call('GET', '/v1/stats/voter/{voter_name}', { ...read, params: { voter_name: 'Alice' }, query: { limit: '5' } });
    await call('GET', '/v1/stats/leaderboard', { ...read, query: { days: '7' } });

    // Pull delivery with the plugin token
    await call('GET', '/v1/plugin-tokens', read);
    const pulled = (await call('GET', '/v1/plugin/votes', { key: plugin.token, query: { wait: '0', limit: '10' } })).body.data.votes;
    expect(pulled.length).toBeGreaterThanOrEqual(2);
    await call('POST', '/v1/plugin/votes/{id}/claim', { key: plugin.token, params: { id: pulled[0].id } });
    await call('POST', '/v1/plugin/votes/{id}/fail', { key: plugin.token, params: { id: pulled[1].id }, body: { reason: 'server offline' } });
    if (pulled[2]) await call('POST', '/v1/plugin/votes/{id}/fail', { key: plugin.token, params: { id: pulled[2].id }, body: { reason: 'player_offline' } });
    await call('GET', '/v1/plugin-tokens/{id}/parked', { ...read, params: { id: plugin.id }, query: { limit: '10' } });
    await call('GET', '/v1/plugin/votes', { key: plugin.token, query: { player: pulled[0].voter_name } });
    await call('DELETE', '/v1/plugin-tokens/{id}', { ...full, params: { id: plugin.id } });

    // Rewards (README "Rewards")
    await call('GET', '/v1/vote-party', read);
    await call('POST', '/v1/voters/{voter_name}/reminders', { ...full, params: { voter_name: 'Dana' }, body: { enabled: false } });
    await call('GET', '/v1/reminders/opt-outs', { ...read, query: { limit: '10' } });

    // Voters (README "Voters") and the vote page's conversion
    await call('GET', '/v1/stats/conversion', read);
    const players = (await call('POST', '/v1/plugin-tokens', { ...full, body: { name: 'Players' } })).body.data;
    await call('POST', '/v1/plugin/players', { key: players.token, body: { players: [{ name: 'Eve_1', uuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5' }] } });
    const found = (await call('GET', '/v1/voters', { ...read, query: { search: 'eve_1' } })).body.data.voters;
    const dana = (await call('GET', '/v1/voters', { ...read, query: { search: 'dana' } })).body.data.voters;
    await call('GET', '/v1/voters/{id}', { ...read, params: { id: found[0].id } });
    await call('POST', '/v1/voters/{id}/merge', { ...full, params: { id: found[0].id }, body: { other: dana[0].id } });
    await call('POST', '/v1/voters/{id}/split', { ...full, params: { id: found[0].id }, body: { kind: 'name', value: 'dana' } });

    // Deletions last
    await call('DELETE', '/v1/voters/{voter_name}', { ...full, params: { voter_name: 'Carol' } });
    await call('DELETE', '/v1/callbacks/{id}', { ...full, params: { id: vcb.id } });
    await call('DELETE', '/v1/providers/{key}', { ...full, params: { key: 'spare' } });
  });

  it('error answers are the documented envelope with a documented status', async () => {
    const starter = await app.createOrg({ plan: 'starter' });
    const expectCode = async (res: Promise<ApiResponse>, code: string) => expect((await res).body.error.code).toBe(code);
    await expectCode(call('GET', '/v1/organization'), 'AUTH_REQUIRED');
    await expectCode(call('GET', '/v1/providers', { key: 'vr_live_not-a-real-key-000000000000000000' }), 'INVALID_API_KEY');
    await expectCode(call('PATCH', '/v1/organization', { key: org.readKey, body: { name: 'Nope' } }), 'INSUFFICIENT_SCOPE');
    await expectCode(call('GET', '/v1/stats/dashboard', { key: starter.key }), 'PLAN_UPGRADE_REQUIRED');
    await expectCode(call('GET', '/v1/plugin/votes', { key: org.key }), 'INSUFFICIENT_SCOPE');
    await expectCode(call('GET', '/v1/callbacks/{id}', { key: org.key, params: { id: 'no-such-callback' } }), 'NOT_FOUND');
    await expectCode(call('GET', '/v1/votes/{id}', { key: org.key, params: { id: 'vt_00000000-0000-0000-0000-000000000000' } }), 'NOT_FOUND');
    await expectCode(call('DELETE', '/v1/providers/{key}', { key: org.key, params: { key: 'no-such-provider' } }), 'NOT_FOUND');
    await expectCode(call('POST', '/v1/callbacks', { key: org.key, body: { name: 5 } }), 'VALIDATION_ERROR');
    await expectCode(call('GET', '/v1/votes', { key: org.key, query: { limit: 'many' } }), 'VALIDATION_ERROR');
    await expectCode(call('GET', '/v1/stats/trend', { key: org.key, query: { granularity: 'year' } }), 'VALIDATION_ERROR');
    await expectCode(call('POST', '/v1/api-keys', { key: org.key, rawBody: '{"name":', headers: { 'content-type': 'application/json' } }), 'VALIDATION_ERROR');
    await expectCode(call('POST', '/v1/providers', { key: org.key, body: { key: 'big', name: 'x'.repeat(1_100_000) } }), 'PAYLOAD_TOO_LARGE');
    expect((await call('POST', '/v1/organization/test-chat-webhook', { key: org.key, body: { webhook_url: 'not a url' } })).status).toBe(400);
    expect(failed.size).toBeGreaterThanOrEqual(10);
  });

  it('429 RATE_LIMITED is the documented envelope too', async () => {
    const limited = await startTestApp({ API_RATE_LIMIT_PER_MINUTE: '1' });
    try {
      const owner = await limited.createOrg({ plan: 'growth' });
      const statuses: number[] = [];
      for (let i = 0; i < 2; i++) {
        const res = await limited.request('GET', '/v1/organization', { key: owner.key });
        statuses.push(res.status);
        const response = deref(doc.paths['/v1/organization'].get.responses[String(res.status)]);
        const check = validator(`GET /v1/organization ${res.status}`, response.content['application/json'].schema);
        expect(check(res.body) ? [] : check.errors).toEqual([]);
      }
      expect(statuses).toEqual([200, 429]);
    } finally {
      await limited.stop();
    }
  });

  it('the reference page loads only from the service itself', async () => {
    const page = await call('GET', '/v1/reference');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    const refs = [...page.text.matchAll(/(?:src|href|data-url)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThanOrEqual(4);
    for (const ref of refs) {
      expect(ref.startsWith('/v1/'), ref).toBe(true);
      expect((await app.request('GET', ref)).status, ref).toBe(200);
    }
    expect((await app.request('GET', '/v1/reference/index.html')).status).toBe(404);
  });

  it.skipIf(!haveChromium && process.env.CI !== 'true')(
    'the reference page renders every operation in Chromium, with no request to another host',
    async () => {
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      });
      try {
        const page = await browser.newPage();
        const foreign: string[] = [];
        const problems: string[] = [];
        page.on('request', (request) => {
          const url = request.url();
          if (!url.startsWith(app.url) && !url.startsWith('data:')) foreign.push(url);
        });
        page.on('pageerror', (e) => problems.push(e.message));
        page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
        await page.goto(`${app.url}/v1/reference`);
        await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
        const operations = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
        expect(await page.locator('.opblock').count()).toBe(operations);
        expect(await page.locator('.info .title').textContent()).toContain('Vote Relay');
        expect(foreign).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await browser.close();
      }
    },
    60_000,
  );

  it('every documented operation was called with a success', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    const missing = documented.filter((op) => !succeeded.has(op));
    expect(missing, missing.map((op) => `${op}: ${[...(failed.get(op) ?? [])].join(', ') || 'not called'}`).join('; ')).toEqual([]);
  });
});
