// Input the API cannot use is refused, never dropped: every /v1 write route (iterated from the route table)
// refuses a key it does not take with VALIDATION_ERROR naming it and changes nothing; a misplaced key hears where
// it belongs; a resource read and sent back whole is accepted. Also the messages a first bad day meets: a form
// body on the JSON API, a key sent without "Bearer ", and the SSRF refusal naming ALLOW_PRIVATE_TARGETS.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { databaseUnavailable, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';
import { startReceiver, type Receiver } from '../kit/receiver.js';
import { REST_ROUTES } from '../../rest-compat/router.js';
import { openApiPath } from '../../rest-compat/openapi.js';

const UNKNOWN = 'not_a_real_field';
const addFormats = ((addFormatsPlugin as { default?: unknown }).default ?? addFormatsPlugin) as (ajv: Ajv2020) => Ajv2020;

describe.skipIf(databaseUnavailable)('strict input on every /v1 write route', () => {
  let app: TestApp;
  let org: TestOrg;
  let receiver: Receiver;
  let pluginToken: { id: string; token: string };
  let spareKeyId: string;
  let callbackId: string;
  let voteId: string;
  let pulledId: string;

  beforeAll(async () => {
    app = await startTestApp({ DELIVERY_POLL_MS: '50' });
    receiver = await startReceiver({ status: 204 });
    org = await app.createOrg({ plan: 'business' });
    const full = { key: org.key };
    pluginToken = (await app.request('POST', '/v1/plugin-tokens', { ...full, body: { name: 'Survival' } })).body.data;
    spareKeyId = (await app.request('POST', '/v1/api-keys', { ...full, body: { name: 'spare', scope: 'read' } })).body.data.id;
    const provider = (
      await app.request('POST', '/v1/providers', {
        ...full,
        body: { key: 'site', name: 'Site', auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
      })
    ).body.data;
    callbackId = (
      await app.request('POST', '/v1/callbacks', {
        ...full,
        body: { name: 'Game', url: `${receiver.url}/cb`, payload_template: { player: '{{voter_name}}' } },
      })
    ).body.data.id;
    const hook = await app.request('POST', new URL(provider.webhook_url).pathname, { body: { user: 'Alice' } });
    expect(hook.status).toBe(200);
    voteId = hook.body.data.vote_id;
    const pulled = await app.request('GET', '/v1/plugin/votes?wait=0', { key: pluginToken.token });
    pulledId = pulled.body.data.votes[0].id;
    await receiver.waitFor(1);
  });
  afterAll(async () => {
    await app?.stop();
    await receiver?.close();
  });

  /** Everything the organization has that a write could change, read through the API. */
  async function snapshot() {
    const read = { key: org.key };
    const get = async (path: string) => {
      const res = await app.request('GET', path, read);
      expect(res.status, `GET ${path}`).toBe(200);
      return res.body.data;
    };
    const providers = await get('/v1/providers');
    const keys = (await get('/v1/api-keys')).keys.map(({ last_used_at: _, ...k }: Record<string, unknown>) => k);
    return {
      organization: await get('/v1/organization'),
      providers,
      provider: await Promise.all(providers.providers.map((p: { key: string }) => app.request('GET', `/v1/providers/${p.key}`, read).then((r) => r.body.data))),
      callbacks: await get('/v1/callbacks?include_disabled=true'),
      keys,
      tokens: (await get('/v1/plugin-tokens')).tokens.map(({ last_poll_at: _, connection: __, ...t }: Record<string, unknown>) => t),
      votes: await get('/v1/votes'),
      deliveries: await get(`/v1/votes/${voteId}/deliveries`),
      chatTests: receiver.requests.length,
    };
  }

  /** A real target for each path parameter, by the resource the path names. */
  function pathFor(path: string): string {
    const resource = path.split('/')[1];
    const value: Record<string, string> = {
      providers: 'site',
      callbacks: callbackId,
      'api-keys': spareKeyId,
      'plugin-tokens': pluginToken.id,
      votes: voteId,
      plugin: pulledId,
      voters: 'Alice',
    };
    return `/v1${path.replace(/:\w+/g, () => encodeURIComponent(value[resource] ?? 'unknown'))}`;
  }

  /** A body each create or action route accepts as it is, so that only the unknown key stands in its way. */
  const valid = (): Record<string, Record<string, unknown>> => ({
    'post /organization/test-chat-webhook': { webhook_url: `${receiver.url}/chat`, message_type: 'simple', message_template: 'hi' },
    'post /api-keys': { name: 'another', scope: 'read' },
    'post /providers': { key: 'other', name: 'Other', auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
    'patch /providers/:key': { name: 'Renamed' },
    'patch /organization': { name: 'Renamed' },
    'post /callbacks': { name: 'Other', url: `${receiver.url}/other` },
    'patch /callbacks/:id': { name: 'Renamed' },
    'post /callbacks/:id/replay': { since: new Date(Date.now() - 3_600_000).toISOString() },
    'post /plugin-tokens': { name: 'Creative' },
    'post /plugin/votes/:id/fail': { reason: 'offline' },
  });

  it('refuses an unknown key on each write route with VALIDATION_ERROR naming it, and changes nothing', async () => {
    const writes = REST_ROUTES.filter((r) => r.method !== 'get' && !r.rawBody);
    expect(writes.length).toBeGreaterThanOrEqual(20);
    const before = await snapshot();
    for (const route of writes) {
      const name = `${route.method.toUpperCase()} ${route.path}`;
      const key = route.path.startsWith('/plugin/') ? pluginToken.token : org.key;
      const good = valid()[`${route.method} ${route.path}`];
      const body = { ...(good ?? {}), [UNKNOWN]: 1 };
      const res = await app.request(route.method.toUpperCase(), pathFor(route.path), { key, body });
      expect(res.status, `${name}: ${res.text}`).toBe(400);
      expect(res.body.error.code, name).toBe('VALIDATION_ERROR');
      expect(res.body.error.details, name).toContainEqual({ field: UNKNOWN, message: expect.stringContaining('is not') });
      // Only the unknown key where the rest of the body is good (a route added later may also miss its own fields;
      // without the refusal, a route that needs no body would have run, which the snapshot below would show).
      if (good) expect(res.body.error.details, name).toHaveLength(1);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('without the unknown key, the same bodies are accepted (the refusal was the key alone)', async () => {
    for (const [route, body] of Object.entries(valid())) {
      const [method, path] = route.split(' ');
      if (method !== 'patch' && path !== '/api-keys' && path !== '/plugin-tokens') continue;
      const res = await app.request(method.toUpperCase(), pathFor(path), { key: org.key, body });
      expect(res.status, `${route}: ${res.text}`).toBeLessThan(300);
    }
  });

  it('says where a misplaced key belongs', async () => {
    const full = { key: org.key };
    const before = (await app.request('GET', '/v1/organization', full)).body.data;
    const top = await app.request('PATCH', '/v1/organization', { ...full, body: { chat_webhook_url: `${receiver.url}/chat` } });
    expect(top.status).toBe(400);
    expect(top.body.error).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringContaining('chat_webhook_url') });
    expect(top.body.error.details).toEqual([{ field: 'chat_webhook_url', message: expect.stringContaining('chat_webhook_url belongs under settings') }]);
    // The GraphQL spelling is placed too, by its REST name, and corrected where it is.
    const camel = await app.request('PATCH', '/v1/organization', { ...full, body: { chatWebhookUrl: `${receiver.url}/chat` } });
    expect(camel.body.error.details).toEqual([{ field: 'chatWebhookUrl', message: expect.stringContaining('chat_webhook_url belongs under settings') }]);
    const camelInside = await app.request('PATCH', '/v1/organization', { ...full, body: { settings: { chatWebhookUrl: `${receiver.url}/chat` } } });
    expect(camelInside.body.error.details).toEqual([{ field: 'settings.chatWebhookUrl', message: expect.stringContaining('did you mean chat_webhook_url?') }]);
    const inner = await app.request('PATCH', '/v1/organization', { ...full, body: { settings: { name: 'Inside' } } });
    expect(inner.body.error.details).toEqual([{ field: 'settings.name', message: expect.stringContaining('name belongs at the top level') }]);
    const typo = await app.request('PATCH', '/v1/organization', { ...full, body: { settings: { chat_webhok_url: null } } });
    expect(typo.body.error.details).toEqual([{ field: 'settings.chat_webhok_url', message: expect.stringContaining('did you mean chat_webhook_url?') }]);
    expect((await app.request('GET', '/v1/organization', full)).body.data).toEqual(before);

    // A callback's field sent to a provider route names the route that takes it.
    const provider = await app.request('POST', '/v1/providers', {
      ...full,
      body: { key: 'misplaced', name: 'M', auth_method: 'url_path', auth_field: 's', votee_path: 'user', payload_template: { a: 1 } },
    });
    expect(provider.status).toBe(400);
    expect(provider.body.error.details).toEqual([{ field: 'payload_template', message: expect.stringContaining('POST /v1/callbacks takes payload_template') }]);
    // An organization setting sent to a callback route says where it goes there.
    const setting = await app.request('PATCH', `/v1/callbacks/${callbackId}`, { ...full, body: { server_callback_url: `${receiver.url}/x` } });
    expect(setting.body.error.details).toEqual([
      { field: 'server_callback_url', message: expect.stringContaining('PATCH /v1/organization takes server_callback_url under settings') },
    ]);
    expect((await app.request('GET', '/v1/providers/misplaced', full)).status).toBe(404);
  });

  it('refuses a body that is not a JSON object as one problem', async () => {
    const res = await app.request('POST', '/v1/api-keys', { key: org.key, body: [{ name: 'x', scope: 'read' }] });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ field: 'body', message: 'must be a JSON object' }]);
  });

  it('accepts, whole and unchanged, what GET returned for the organization, a provider and a callback', async () => {
    const business = await app.createOrg({ plan: 'business' });
    const full = { key: business.key };
    const doc = (await app.request('GET', '/v1/openapi.json')).body;
    const ajv = addFormats(new Ajv2020({ allErrors: true, allowUnionTypes: true }));
    ajv.addSchema(JSON.parse(JSON.stringify({ $id: 'openapi', $defs: doc.components.schemas }).replaceAll('"#/components/schemas/', '"openapi#/$defs/')));
    const documented = (method: string, path: string, body: unknown) => {
      const schema = doc.paths[`/v1${openApiPath(path)}`][method].requestBody.content['application/json'].schema;
      const check = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"openapi#/$defs/')));
      expect(check(body) ? [] : check.errors, `${method} ${path}: the document admits what GET returned`).toEqual([]);
      expect(check({ ...(body as object), [UNKNOWN]: 1 }), `${method} ${path}: the document refuses an unknown key`).toBe(false);
    };

    const settings = {
      chat_webhook_url: `${receiver.url}/chat`,
      chat_message_type: 'embed',
      chat_embed_template: { title: '{{voter_name}}', color: 5 },
      admin_daily_summary: true,
    };
    expect((await app.request('PATCH', '/v1/organization', { ...full, body: { settings } })).status).toBe(200);
    const orgRead = (await app.request('GET', '/v1/organization', full)).body.data;
    const orgBack = await app.request('PATCH', '/v1/organization', { ...full, body: orgRead });
    expect(orgBack.status, orgBack.text).toBe(200);
    expect(orgBack.body.data).toEqual(orgRead);
    documented('patch', '/organization', orgRead);

    const made = [
      { key: 'topgg', name: 'top.gg', template: 'topgg', auth_value: 'whs_secret_0123456789abcdef' },
      {
        key: 'custom',
        name: 'Custom',
        auth_method: 'header',
        auth_field: 'X-Secret',
        votee_path: 'data.user',
        body_timestamp_path: 'ts',
        body_timestamp_max_age: 300,
      },
      { key: 'mc', name: 'Minecraft lists', auth_method: 'votifier' },
    ];
    for (const body of made) {
      const created = await app.request('POST', '/v1/providers', { ...full, body });
      expect(created.status, created.text).toBe(201);
      const read = (await app.request('GET', `/v1/providers/${body.key}`, full)).body.data;
      const back = await app.request('PATCH', `/v1/providers/${body.key}`, { ...full, body: read });
      expect(back.status, `${body.key}: ${back.text}`).toBe(200);
      expect(back.body.data, body.key).toEqual(read);
      documented('patch', '/providers/:key', read);
    }

    const callbacks = [
      {
        name: 'HTTP',
        url: `${receiver.url}/cb`,
        payload_template: { player: '{{voter_name}}', nested: { any_key: true } },
        providers: ['custom'],
        max_per_second: 5,
      },
      { name: 'Votifier', kind: 'votifier', host: '127.0.0.1', port: 8192, service_name: 'VoteRelay', token: 'abcdefgh12345678', enabled: false },
    ];
    for (const body of callbacks) {
      const created = await app.request('POST', '/v1/callbacks', { ...full, body });
      expect(created.status, created.text).toBe(201);
      const read = (await app.request('GET', `/v1/callbacks/${created.body.data.id}`, full)).body.data;
      const back = await app.request('PATCH', `/v1/callbacks/${read.id}`, { ...full, body: read });
      expect(back.status, `${body.name}: ${back.text}`).toBe(200);
      const { updated_at: _, ...same } = read;
      expect(back.body.data, body.name).toMatchObject(same);
      documented('patch', '/callbacks/:id', read);
    }
  });

  it("the README's settings example is a body PATCH /v1/organization accepts", async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const example = /curl -X PATCH http:\/\/localhost:3000\/v1\/organization .*? -d '([\s\S]*?)'\n```/.exec(readme);
    expect(example, 'the example in the README').not.toBeNull();
    const body = JSON.parse(example![1]);
    const business = await app.createOrg({ plan: 'business' });
    const res = await app.request('PATCH', '/v1/organization', { key: business.key, body });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ name: body.name, settings: body.settings });
  });

  it('takes a read-only field whatever its value on a PATCH, but refuses it on a create', async () => {
    const full = { key: org.key };
    const before = (await app.request('GET', '/v1/providers/site', full)).body.data;
    const res = await app.request('PATCH', '/v1/providers/site', { ...full, body: { id: 'another-id', votes_total: 12345, name: before.name } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.id).toBe(before.id);
    expect(res.body.data.votes_total).toBe(before.votes_total);
    const create = await app.request('POST', '/v1/providers', {
      ...full,
      body: { key: 'copy', name: 'Copy', auth_method: 'url_path', auth_field: 's', votee_path: 'user', id: before.id },
    });
    expect(create.status).toBe(400);
    expect(create.body.error.details).toEqual([{ field: 'id', message: expect.stringContaining('is not a field of this request') }]);
  });

  it('refuses an unknown key in a chat embed template (REST and GraphQL); a callback payload template is free', async () => {
    const full = { key: org.key };
    const rest = await app.request('PATCH', '/v1/organization', { ...full, body: { settings: { chat_embed_template: { title: 'x', colour: 5 } } } });
    expect(rest.status).toBe(400);
    expect(rest.body.error.details).toEqual([{ field: 'settings.chat_embed_template.colour', message: expect.stringContaining('not') }]);
    const nested = await app.request('POST', '/v1/organization/test-chat-webhook', {
      ...full,
      body: { webhook_url: `${receiver.url}/chat`, message_type: 'embed', embed_template: { title: 'x', footer: { text: 'f', icon: 'y' } } },
    });
    expect(nested.status).toBe(400);
    expect(nested.body.error.details).toEqual([{ field: 'embed_template.footer.icon', message: expect.stringContaining('not') }]);

    const gql = await app.request('POST', '/graphql', {
      ...full,
      body: {
        query: 'mutation ($s: OrganizationSettingsInput!) { updateOrganization(input: { settings: $s }) { name } }',
        variables: { s: { chatEmbedTemplate: { title: 'x', colour: 5 } } },
      },
    });
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'settings.chat_embed_template.colour' }] });
    // GraphQL input objects refuse unknown fields themselves.
    const unknownSetting = await app.request('POST', '/graphql', {
      ...full,
      body: {
        query: 'mutation ($s: OrganizationSettingsInput!) { updateOrganization(input: { settings: $s }) { name } }',
        variables: { s: { chatWebhookUrll: null } },
      },
    });
    expect(unknownSetting.body.errors[0].message).toContain('chatWebhookUrll');
  });
});

describe.skipIf(databaseUnavailable)('the messages of a first bad day', () => {
  let app: TestApp;
  let org: TestOrg;

  beforeAll(async () => {
    app = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'false' });
    org = await app.createOrg({ plan: 'growth' });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('a private target names the exact ALLOW_PRIVATE_TARGETS entry that would allow it', async () => {
    const chat = await app.request('PATCH', '/v1/organization', { key: org.key, body: { settings: { chat_webhook_url: 'http://127.0.0.1:9/chat' } } });
    expect(chat.status).toBe(400);
    expect(chat.body.error.details).toEqual([
      { field: 'settings.chat_webhook_url', message: expect.stringContaining('add 127.0.0.1:9 to ALLOW_PRIVATE_TARGETS') },
    ]);
    const callback = await app.request('POST', '/v1/callbacks', { key: org.key, body: { name: 'Game', url: 'http://10.0.0.5/cb' } });
    expect(callback.status).toBe(400);
    expect(callback.body.error.details).toEqual([{ field: 'url', message: expect.stringContaining('add 10.0.0.5:80 to ALLOW_PRIVATE_TARGETS') }]);
    const local = await app.request('POST', '/v1/callbacks', { key: org.key, body: { name: 'Game', url: 'http://localhost:8080/cb' } });
    expect(local.body.error.details[0].message).toContain('add localhost:8080 to ALLOW_PRIVATE_TARGETS');
    expect((await app.request('GET', '/v1/callbacks', { key: org.key })).body.data.count).toBe(0);
  });

  it('an unknown /api, /v1 or /hooks path answers the JSON error envelope, and a known path asked with another method 405 with Allow', async () => {
    for (const path of ['/api/votes', '/api/v1/organization', '/v1/nope', '/v1/votes/x/y/z', '/hooks/only-one-segment']) {
      const res = await app.request('GET', path, { key: org.key });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
      expect(res.body.error, path).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('No route for GET') });
    }
    expect((await app.request('GET', '/api/votes', { key: org.key })).body.error.message).toContain('the REST API is at /v1');
    const wrong = await app.request('PUT', '/v1/organization', { key: org.key, body: { name: 'X' } });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, PATCH, HEAD');
    expect(wrong.body.error).toMatchObject({ code: 'METHOD_NOT_ALLOWED', message: 'PUT is not allowed on /v1/organization; it takes GET, PATCH, HEAD' });
    const hook = await app.request('PUT', `/hooks/${org.slug}/site`, { body: { user: 'x' } });
    expect(hook.status).toBe(405);
    expect(hook.headers.get('allow')).toContain('POST');
    // The dashboard still answers its own pages.
    const page = await fetch(`${app.url}/votes`, { headers: { accept: 'text/html' } });
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    // Nothing changed.
    expect((await app.request('GET', '/v1/organization', { key: org.key })).body.data.name).not.toBe('X');
  });

  it("validation messages are words, not the library's: a missing auth_field is said for its method", async () => {
    const missing = await app.request('POST', '/v1/providers', {
      key: org.key,
      body: { key: 'site', name: 'Site', auth_method: 'header', votee_path: 'user' },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details).toEqual([
      { field: 'auth_field', message: 'is required for the header method: the header the site sends its secret in (e.g. Authorization)' },
    ]);
    const typed = await app.request('POST', '/v1/providers', {
      key: org.key,
      body: { key: 'site', name: 42, auth_method: 'query', auth_field: 'token', votee_path: 'user' },
    });
    expect(typed.status).toBe(400);
    expect(typed.body.error.details).toEqual([{ field: 'name', message: 'must be a string' }]);
    expect(JSON.stringify([missing.body, typed.body])).not.toMatch(/Invalid input|expected string|received/);
    expect((await app.request('GET', '/v1/providers', { key: org.key })).body.data.count).toBe(0);
  });

  it('a form or text body on the JSON API says to send JSON, and creates nothing', async () => {
    const bodies = [
      { type: 'application/x-www-form-urlencoded', raw: 'name=Form&scope=read' },
      { type: 'text/plain;charset=UTF-8', raw: JSON.stringify({ name: 'Text', scope: 'read' }) },
      { type: 'multipart/form-data; boundary=x', raw: '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nM\r\n--x--\r\n' },
    ];
    const before = (await app.request('GET', '/v1/api-keys', { key: org.key })).body.data.keys.length;
    for (const { type, raw } of bodies) {
      const res = await app.request('POST', '/v1/api-keys', { key: org.key, rawBody: raw, headers: { 'content-type': type } });
      expect(res.status, type).toBe(400);
      expect(res.body.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: expect.stringContaining('send JSON (Content-Type: application/json)'),
        details: [{ field: 'body', message: 'send JSON (Content-Type: application/json)' }],
      });
    }
    const patch = await app.request('PATCH', '/v1/organization', {
      key: org.key,
      rawBody: 'name=Form',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(patch.body.error.message).toContain('application/x-www-form-urlencoded: send JSON');
    expect((await app.request('GET', '/v1/api-keys', { key: org.key })).body.data.keys.length).toBe(before);
    // An empty form (curl -X POST -d '') is no body at all: the route runs.
    const empty = await app.request('POST', `/v1/providers/none/regenerate-secret`, {
      key: org.key,
      rawBody: '',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(empty.body.error.code).toBe('NOT_FOUND');
  });

  it('a key sent without "Bearer " says how to send it, on REST and GraphQL', async () => {
    const cases: { headers: Record<string, string>; code: string; says: string }[] = [
      { headers: { authorization: org.key }, code: 'INVALID_API_KEY', says: 'without "Bearer "' },
      { headers: { authorization: `Token ${org.key}` }, code: 'INVALID_API_KEY', says: 'Token scheme' },
      { headers: { authorization: `Basic ${Buffer.from(`${org.key}:`).toString('base64')}` }, code: 'INVALID_API_KEY', says: 'Basic scheme' },
      { headers: { 'x-api-key': org.key }, code: 'AUTH_REQUIRED', says: 'x-api-key, which is not read' },
    ];
    for (const { headers, code, says } of cases) {
      const rest = await app.request('GET', '/v1/organization', { headers });
      expect(rest.status, says).toBe(401);
      expect(rest.body.error.code, says).toBe(code);
      expect(rest.body.error.message, says).toContain(says);
      expect(rest.body.error.message, says).toContain('send the key as Authorization: Bearer <key>');
      expect(rest.text, says).not.toContain(org.key);
      // A write hears it before anything about its body.
      const write = await app.request('POST', '/v1/api-keys', { headers, body: { bogus: true } });
      expect(write.body.error.code, says).toBe(code);
      const gql = await app.request('POST', '/graphql', { headers, body: { query: '{ organization { slug } }' } });
      expect(JSON.stringify(gql.body), says).toContain('send the key as Authorization: Bearer <key>');
    }
    // The right way still works, and a wrong key sent the right way is the plain refusal.
    expect((await app.request('GET', '/v1/organization', { headers: { authorization: `Bearer ${org.key}` } })).status).toBe(200);
    const wrong = await app.request('GET', '/v1/organization', { headers: { authorization: 'Bearer vr_live_nope' } });
    expect(wrong.body.error).toMatchObject({ code: 'INVALID_API_KEY', message: 'The API key is invalid, malformed or revoked' });
  });
});
