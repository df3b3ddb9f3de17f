import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { databaseUnavailable, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';
import { startReceiver, type Receiver } from '../kit/receiver.js';
import { until } from '../kit/wait.js';

const DEFAULT_TEMPLATE = {
  event: 'vote',
  vote_id: '{{vote_id}}',
  voter_name: '{{voter_name}}',
  provider: '{{provider_key}}',
  received_at: '{{received_at}}',
  test: '{{test}}',
};
const CALLBACK_KEYS = [
  'created_at',
  'disabled_at',
  'disabled_reason',
  'enabled',
  'events',
  'failing_since',
  'has_auth_secret',
  'id',
  'kind',
  'max_per_second',
  'name',
  'payload_template',
  'priority',
  'providers',
  'target',
  'timeout_ms',
  'updated_at',
  'url',
];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const SIGNING_SECRET = /^whsec_[A-Za-z0-9+/]+={0,2}$/;
/** Until this process's clock is past `iso`: a change made now gets a later updated_at (millisecond times). */
const pastTime = (iso: string) =>
  until(
    async () => Date.now(),
    (now) => now > Date.parse(iso),
    1_000,
  );

/** Verifies a test render's headers against its payload with the standardwebhooks package; true when they match. */
function verifies(secret: string, render: { payload: unknown; headers: Record<string, string> }): boolean {
  try {
    new Webhook(secret).verify(JSON.stringify(render.payload), render.headers);
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(databaseUnavailable)('callbacks (/v1/callbacks)', () => {
  let app: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    app = await startTestApp();
    receiver = await startReceiver({ status: 200, body: { ok: true } });
  });
  afterAll(async () => {
    await app?.stop();
    await receiver?.close();
  });

  const create = (org: TestOrg, body: unknown, key = org.key) => app.request('POST', '/v1/callbacks', { key, body });
  const made = async (org: TestOrg, body: Record<string, unknown> = {}) => {
    const res = await create(org, { name: 'Game server', url: `${receiver.url}/vote`, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data as Record<string, any>;
  };
  const list = (org: TestOrg, query = '?include_disabled=true', key = org.key) => app.request('GET', `/v1/callbacks${query}`, { key });
  const countAll = async (org: TestOrg) => (await list(org)).body.data.count as number;
  const read = (org: TestOrg, id: string, key = org.key) => app.request('GET', `/v1/callbacks/${id}`, { key });
  const render = (org: TestOrg, id: string, key = org.key) => app.request('POST', `/v1/callbacks/${id}/test`, { key });
  const withoutSecret = ({ signing_secret: _s, ...rest }: Record<string, any>) => rest;

  it('creates a callback with the documented defaults and shows the signing secret only then', async () => {
    const org = await app.createOrg({ plan: 'growth' });
    const res = await create(org, { name: 'Game server', url: `${receiver.url}/vote` });
    expect(res.status).toBe(201);
    expect(res.body.meta).toEqual({ request_id: expect.any(String) });
    expect(res.body.data).toEqual({
      id: expect.any(String),
      name: 'Game server',
      kind: 'http',
      url: `${receiver.url}/vote`,
      target: `${receiver.url}/vote`,
      has_auth_secret: false,
      timeout_ms: 5000,
      enabled: true,
      priority: 0,
      payload_template: DEFAULT_TEMPLATE,
      providers: [],
      max_per_second: null,
      events: ['vote'],
      disabled_reason: null,
      disabled_at: null,
      failing_since: null,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
      signing_secret: expect.stringMatching(SIGNING_SECRET),
    });
    // At least 24 random bytes behind the prefix.
    expect(Buffer.from(res.body.data.signing_secret.slice('whsec_'.length), 'base64').length).toBeGreaterThanOrEqual(24);

    const got = await read(org, res.body.data.id, org.readKey);
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual(withoutSecret(res.body.data));
    expect(got.text).not.toContain(res.body.data.signing_secret);
    const listed = await list(org, '', org.readKey);
    expect(listed.text).not.toContain(res.body.data.signing_secret);
  });

  it('takes every field on create and never returns auth_secret (create, get, list, patch)', async () => {
    const org = await app.createOrg({ plan: 'business' });
    const authSecret = 'auth-secret-value-that-must-never-leak-42';
    const template = { kind: 'vote', who: '{{voter_name}}', nested: { n: 1, flag: true, items: ['{provider_key}', null] } };
    const res = await create(org, {
      name: 'Full',
      url: `${receiver.url}/full`,
      auth_secret: authSecret,
      timeout_ms: 12_345,
      enabled: false,
      priority: -7,
      payload_template: template,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({
      name: 'Full',
      url: `${receiver.url}/full`,
      timeout_ms: 12_345,
      enabled: false,
      priority: -7,
      payload_template: template,
    });
    expect(Object.keys(res.body.data).sort()).toEqual([...CALLBACK_KEYS, 'signing_secret'].sort());
    const id = res.body.data.id;
    const responses = [
      res,
      await read(org, id),
      await list(org),
      await app.request('PATCH', `/v1/callbacks/${id}`, { key: org.key, body: { name: 'Full 2' } }),
      await app.request('PATCH', `/v1/callbacks/${id}`, { key: org.key, body: { auth_secret: 'another-auth-secret-that-must-not-leak' } }),
      await render(org, id),
    ];
    for (const r of responses) {
      expect(r.status, r.text).toBeLessThan(300);
      expect(r.text).not.toContain(authSecret);
      expect(r.text).not.toContain('another-auth-secret-that-must-not-leak');
      // Only whether one is set (has_auth_secret), never the field itself.
      expect(r.text).not.toMatch(/[^_]auth_secret"/);
    }
    for (const c of responses[2].body.data.callbacks as Record<string, unknown>[]) expect(Object.keys(c).sort()).toEqual(CALLBACK_KEYS);
    expect(Object.keys(responses[1].body.data).sort()).toEqual(CALLBACK_KEYS);
    expect(Object.keys(responses[3].body.data).sort()).toEqual(CALLBACK_KEYS);
    // Stored sealed, not in clear.
    const row = await app.deps.db.prisma.callback.findUniqueOrThrow({ where: { id } });
    expect(JSON.stringify(row)).not.toContain('another-auth-secret-that-must-not-leak');
  });

  it('lists only enabled callbacks unless include_disabled=true, with count and the plan limit', async () => {
    const org = await app.createOrg({ plan: 'growth' });
    const a = await made(org, { name: 'A', priority: 5 });
    const b = await made(org, { name: 'B', enabled: false, priority: 1 });
    const c = await made(org, { name: 'C', priority: -1 });
    for (const [query, expected] of [
      ['', [c, a]],
      ['?include_disabled=false', [c, a]],
      ['?include_disabled=true', [c, b, a]],
    ] as const) {
      for (const key of [org.key, org.readKey]) {
        const res = await list(org, query, key);
        expect(res.status, query).toBe(200);
        expect(res.body.meta).toEqual({ request_id: expect.any(String) });
        expect(Object.keys(res.body.data).sort()).toEqual(['callbacks', 'count', 'limit']);
        const ids = (res.body.data.callbacks as { id: string }[]).map((x) => x.id);
        expect(ids.sort(), query).toEqual(expected.map((x) => x.id).sort());
        expect(res.body.data.count).toBe(3); // every callback the organization has, disabled ones too (it is compared with the limit)
        expect(res.body.data.limit).toBe(3);
        for (const cb of res.body.data.callbacks) expect(Object.keys(cb).sort()).toEqual(CALLBACK_KEYS);
      }
    }
    const listed = (await list(org)).body.data.callbacks.find((x: { id: string }) => x.id === b.id);
    expect(listed).toEqual(withoutSecret(b));
    const bad = await list(org, '?include_disabled=maybe');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    expect(bad.body.error.details[0].field).toBe('include_disabled');
    for (const [plan, limit] of [
      ['starter', 1],
      ['pro', 10],
      ['business', 50],
    ] as const) {
      const other = await app.createOrg({ plan });
      const res = await list(other, '', other.readKey);
      expect(res.body.data).toEqual({ callbacks: [], count: 0, limit });
    }
  });

  it('reads one callback', async () => {
    const org = await app.createOrg({ plan: 'growth' });
    const cb = await made(org, { name: 'One', priority: 3 });
    for (const key of [org.key, org.readKey]) {
      const res = await read(org, cb.id, key);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(withoutSecret(cb));
      expect(res.body.meta).toEqual({ request_id: expect.any(String) });
    }
    const missing = await read(org, '00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
  });

  it('PATCH changes only the fields given; enabled false changes updated_at and nothing else', async () => {
    const org = await app.createOrg({ plan: 'growth' });
    const cb = withoutSecret(await made(org, { name: 'Patchy', priority: 2, timeout_ms: 3000, payload_template: { who: '{{voter_name}}' } }));
    await pastTime(cb.updated_at);
    const off = await app.request('PATCH', `/v1/callbacks/${cb.id}`, { key: org.key, body: { enabled: false } });
    expect(off.status).toBe(200);
    expect(off.body.meta).toEqual({ request_id: expect.any(String) });
    expect(off.body.data).toEqual({ ...cb, enabled: false, updated_at: expect.stringMatching(ISO) });
    expect(Date.parse(off.body.data.updated_at)).toBeGreaterThan(Date.parse(cb.updated_at));
    expect(off.body.data.created_at).toBe(cb.created_at);
    expect((await read(org, cb.id)).body.data).toEqual(off.body.data);
    // Disabled: gone from the default list, present with include_disabled.
    expect((await list(org, '')).body.data.callbacks).toEqual([]);
    expect((await list(org)).body.data.callbacks).toEqual([off.body.data]);

    await pastTime(off.body.data.updated_at);
    const on = await app.request('PATCH', `/v1/callbacks/${cb.id}`, { key: org.key, body: { enabled: true } });
    expect(on.body.data).toEqual({ ...cb, updated_at: expect.stringMatching(ISO) });
    expect(Date.parse(on.body.data.updated_at)).toBeGreaterThan(Date.parse(off.body.data.updated_at));

    const many = await app.request('PATCH', `/v1/callbacks/${cb.id}`, {
      key: org.key,
      body: { name: 'Renamed', url: `${receiver.url}/other`, timeout_ms: 1000, priority: -3, payload_template: { x: '{{vote_id}}' } },
    });
    expect(many.status).toBe(200);
    expect(many.body.data).toEqual({
      ...cb,
      name: 'Renamed',
      url: `${receiver.url}/other`,
      target: `${receiver.url}/other`,
      timeout_ms: 1000,
      priority: -3,
      payload_template: { x: '{{vote_id}}' },
      updated_at: expect.stringMatching(ISO),
    });
    const empty = await app.request('PATCH', `/v1/callbacks/${cb.id}`, { key: org.key, body: {} });
    expect(empty.status).toBe(200);
    expect(empty.body.data).toMatchObject({ name: 'Renamed', enabled: true, priority: -3 });
  });

  it('DELETE answers {message: "Deleted", id}, then the callback is gone', async () => {
    const org = await app.createOrg({ plan: 'growth' });
    const cb = await made(org, { name: 'Doomed' });
    const keep = await made(org, { name: 'Kept' });
    const res = await app.request('DELETE', `/v1/callbacks/${cb.id}`, { key: org.key });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ message: 'Deleted', id: cb.id });
    for (const [method, path] of [
      ['GET', `/v1/callbacks/${cb.id}`],
      ['DELETE', `/v1/callbacks/${cb.id}`],
      ['PATCH', `/v1/callbacks/${cb.id}`],
      ['POST', `/v1/callbacks/${cb.id}/test`],
      ['POST', `/v1/callbacks/${cb.id}/rotate-secret`],
    ] as const) {
      const after = await app.request(method, path, { key: org.key, body: method === 'PATCH' ? { name: 'zombie' } : undefined });
      expect(after.status, `${method} ${path}`).toBe(404);
      expect(after.body.error.code).toBe('NOT_FOUND');
    }
    const remaining = (await list(org)).body.data;
    expect(remaining.count).toBe(1);
    expect(remaining.callbacks.map((c: { id: string }) => c.id)).toEqual([keep.id]);
  });

  it('lists the template variables', async () => {
    const org = await app.createOrg({ plan: 'starter' });
    for (const key of [org.key, org.readKey]) {
      const res = await app.request('GET', '/v1/callbacks/variables', { key });
      expect(res.status).toBe(200);
      expect(res.body.meta).toEqual({ request_id: expect.any(String) });
      expect(Object.keys(res.body.data)).toEqual(['variables']);
      const variables = res.body.data.variables as Record<string, unknown>[];
      expect(Array.isArray(variables)).toBe(true);
      for (const v of variables) {
        expect(Object.keys(v).sort()).toEqual(['description', 'events', 'example', 'name', 'type']);
        for (const field of ['name', 'description', 'example', 'type']) expect(typeof v[field], `${v.name}.${field}`).toBe('string');
        expect((v.events as string[]).length, String(v.name)).toBeGreaterThan(0);
        expect((v.description as string).length).toBeGreaterThan(0);
      }
      const names = variables.map((v) => v.name);
      for (const name of [
        'voter_name',
        'provider_name',
        'provider_key',
        'vote_id',
        'vote_public_id',
        'received_at',
        'received_at_unix',
        'organization_slug',
        'organization_name',
        'raw_payload',
        'payload.<path>',
      ]) {
        expect(names).toContain(name);
      }
      expect(variables.find((v) => v.name === 'vote_id')!.example).toMatch(/^vt_[0-9a-f-]{36}$/);
      expect(variables.find((v) => v.name === 'vote_public_id')!.example).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect((await app.request('GET', '/v1/callbacks/variables')).status).toBe(401);
  });

  it('test renders the payload with sample values and signs it (Standard Webhooks), sending nothing', async () => {
    const org = await app.createOrg({ plan: 'growth', name: 'Render Org' });
    const quiet = await startReceiver({ status: 200 });
    try {
      const cb = await made(org, { url: `${quiet.url}/hook` });
      const before = Math.floor(Date.now() / 1000);
      const res = await render(org, cb.id);
      const after = Math.ceil(Date.now() / 1000);
      expect(res.status, res.text).toBe(200);
      expect(res.body.meta).toEqual({ request_id: expect.any(String) });
      const data = res.body.data;
      expect(Object.keys(data).sort()).toEqual(['headers', 'method', 'payload', 'sent', 'url']);
      expect(data).toMatchObject({ url: `${quiet.url}/hook`, method: 'POST', sent: false });
      expect(data.payload).toEqual({
        event: 'vote',
        vote_id: expect.stringMatching(/^vt_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
        voter_name: expect.any(String),
        provider: expect.any(String),
        received_at: expect.stringMatching(ISO),
        test: false,
      });
      expect(JSON.stringify(data.payload)).not.toMatch(/\{\{|\}\}/);
      expect(data.payload.voter_name.length).toBeGreaterThan(0);
      expect(data.payload.provider.length).toBeGreaterThan(0);
      const receivedAt = Date.parse(data.payload.received_at) / 1000;
      expect(receivedAt).toBeGreaterThanOrEqual(before - 1);
      expect(receivedAt).toBeLessThanOrEqual(after + 1);

      expect(data.headers).toMatchObject({
        'webhook-id': expect.any(String),
        'webhook-timestamp': expect.stringMatching(/^\d+$/),
        'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/),
      });
      expect(Object.values(data.headers).every((v) => typeof v === 'string')).toBe(true);
      expect(data.headers['content-type']).toMatch(/^application\/json/);
      const ts = Number(data.headers['webhook-timestamp']);
      expect(ts).toBeGreaterThanOrEqual(before - 1);
      expect(ts).toBeLessThanOrEqual(after + 1);
      expect(new Webhook(cb.signing_secret).verify(JSON.stringify(data.payload), data.headers)).toEqual(data.payload);
      // A tampered body does not verify.
      expect(verifies(cb.signing_secret, { ...data, payload: { ...data.payload, voter_name: 'Mallory' } })).toBe(false);
      expect(data.headers.authorization).toBeUndefined();

      // A custom template with every variable, nesting, non-string values and an unknown name.
      const custom = await app.request('PATCH', `/v1/callbacks/${cb.id}`, {
        key: org.key,
        body: {
          payload_template: {
            voter: '{{voter_name}}',
            single: '{provider_name}',
            mixed: 'vote {{vote_public_id}} at {{received_at_unix}}',
            org: { slug: '{{organization_slug}}', name: '{{organization_name}}' },
            list: ['{{provider_key}}', 7, true, null],
            raw: '{{raw_payload}}',
            unknown: '{{not_a_variable}}',
            number: 42,
          },
        },
      });
      expect(custom.status).toBe(200);
      const second = (await render(org, cb.id)).body.data;
      const p = second.payload;
      expect(p.org).toEqual({ slug: org.slug, name: 'Render Org' });
      expect(p.voter).toBe(data.payload.voter_name);
      expect(p.list).toEqual([data.payload.provider, 7, true, null]);
      expect(p.number).toBe(42);
      expect(p.unknown).toBe('{{not_a_variable}}');
      expect(p.mixed).toMatch(/^vote [0-9a-f-]{36} at \d{10}$/);
      expect(typeof p.single).toBe('string');
      expect(p.single).not.toContain('{');
      expect(() => JSON.parse(p.raw)).not.toThrow();
      expect(verifies(cb.signing_secret, second)).toBe(true);

      // With an auth_secret the render shows an Authorization header, but never the secret itself.
      const secret = 'render-auth-secret-must-stay-hidden';
      await app.request('PATCH', `/v1/callbacks/${cb.id}`, { key: org.key, body: { auth_secret: secret } });
      const third = await render(org, cb.id);
      expect(third.body.data.headers.authorization).toMatch(/^Bearer /);
      expect(third.text).not.toContain(secret);
      expect(verifies(cb.signing_secret, third.body.data)).toBe(true);

      // A render is never a send: the organization has no delivery job, and the receiver heard nothing.
      expect(await app.deps.db.prisma.deliveryJob.count({ where: { organizationId: org.id } })).toBe(0);
      expect(quiet.requests).toHaveLength(0);
    } finally {
      await quiet.close();
    }
  });

  it('rotate-secret returns a new signing secret; the old one keeps signing beside it for 24 h, then stops', async () => {
    const org = await app.createOrg({ plan: 'growth' });
    const cb = await made(org);
    const before = (await read(org, cb.id)).body.data;
    expect(verifies(cb.signing_secret, (await render(org, cb.id)).body.data)).toBe(true);
    expect((await render(org, cb.id)).body.data.headers['webhook-signature'].split(' ')).toHaveLength(1);
    const rotatedAt = Date.now();
    const res = await app.request('POST', `/v1/callbacks/${cb.id}/rotate-secret`, { key: org.key });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual({ id: cb.id, signing_secret: expect.stringMatching(SIGNING_SECRET) });
    const fresh = res.body.data.signing_secret as string;
    expect(fresh).not.toBe(cb.signing_secret);
    // Two signatures (Standard Webhooks allows several): a receiver holding either secret verifies.
    const rendered = (await render(org, cb.id)).body.data;
    expect(rendered.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verifies(fresh, rendered)).toBe(true);
    expect(verifies(cb.signing_secret, rendered)).toBe(true);
    const stored = await app.deps.db.prisma.callback.findUniqueOrThrow({ where: { id: cb.id } });
    const overlap = stored.previousSigningSecretUntil!.getTime() - rotatedAt;
    expect(overlap).toBeGreaterThan(24 * 3_600_000 - 60_000);
    expect(overlap).toBeLessThanOrEqual(24 * 3_600_000 + 60_000);
    expect(stored.previousSigningSecretEnc).not.toContain(cb.signing_secret.slice(6)); // sealed at rest
    // The secret is not readable afterwards; the callback's fields are unchanged.
    const after = await read(org, cb.id);
    expect(after.text).not.toContain(fresh);
    expect({ ...after.body.data, updated_at: null }).toEqual({ ...before, updated_at: null });
    // Once the 24 hours are over, only the new secret signs.
    await app.deps.db.prisma.callback.update({ where: { id: cb.id }, data: { previousSigningSecretUntil: new Date(Date.now() - 1_000) } });
    const later = (await render(org, cb.id)).body.data;
    expect(later.headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(verifies(fresh, later)).toBe(true);
    expect(verifies(cb.signing_secret, later)).toBe(false);
    // Rotating again: the newest and the one it replaced sign; the first is gone for good.
    const again = (await app.request('POST', `/v1/callbacks/${cb.id}/rotate-secret`, { key: org.key })).body.data.signing_secret;
    expect(again).not.toBe(fresh);
    const third = (await render(org, cb.id)).body.data;
    expect(verifies(again, third)).toBe(true);
    expect(verifies(fresh, third)).toBe(true);
    expect(verifies(cb.signing_secret, third)).toBe(false);
  });

  it('a read key can read but not write', async () => {
    const org = await app.createOrg({ plan: 'growth' });
    const cb = await made(org);
    const snapshot = (await read(org, cb.id)).body.data;
    for (const path of ['/v1/callbacks', '/v1/callbacks?include_disabled=true', `/v1/callbacks/${cb.id}`, '/v1/callbacks/variables']) {
      expect((await app.request('GET', path, { key: org.readKey })).status, path).toBe(200);
    }
    for (const [method, path, body] of [
      ['POST', '/v1/callbacks', { name: 'Nope', url: `${receiver.url}/nope` }],
      ['PATCH', `/v1/callbacks/${cb.id}`, { name: 'Nope', enabled: false }],
      ['DELETE', `/v1/callbacks/${cb.id}`, undefined],
      ['POST', `/v1/callbacks/${cb.id}/test`, undefined],
      ['POST', `/v1/callbacks/${cb.id}/rotate-secret`, undefined],
    ] as const) {
      const res = await app.request(method, path, { key: org.readKey, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error.code).toBe('INSUFFICIENT_SCOPE');
      expect(res.body.meta).toEqual({ request_id: expect.any(String) });
    }
    expect((await read(org, cb.id)).body.data).toEqual(snapshot);
    expect(await countAll(org)).toBe(1);
    // The refused rotation left the original secret in force.
    expect(verifies(cb.signing_secret, (await render(org, cb.id)).body.data)).toBe(true);
    // No key at all, and a bad key.
    expect((await app.request('GET', '/v1/callbacks')).body.error.code).toBe('AUTH_REQUIRED');
    expect((await app.request('GET', '/v1/callbacks', { key: 'vr_live_not-a-real-key-000000000000000000' })).body.error.code).toBe('INVALID_API_KEY');
  });

  it("another organization's callback is NOT_FOUND everywhere and stays unchanged", async () => {
    const owner = await app.createOrg({ plan: 'growth' });
    const intruder = await app.createOrg({ plan: 'business' });
    const cb = await made(owner, { name: 'Mine' });
    const snapshot = (await read(owner, cb.id)).body.data;
    for (const [method, path, body] of [
      ['GET', `/v1/callbacks/${cb.id}`, undefined],
      ['PATCH', `/v1/callbacks/${cb.id}`, { name: 'pwned', enabled: false, url: 'http://127.0.0.1:1/evil' }],
      ['DELETE', `/v1/callbacks/${cb.id}`, undefined],
      ['POST', `/v1/callbacks/${cb.id}/test`, undefined],
      ['POST', `/v1/callbacks/${cb.id}/rotate-secret`, undefined],
    ] as const) {
      for (const key of [intruder.key, intruder.readKey]) {
        const res = await app.request(method, path, { key, body });
        if (key === intruder.readKey && method !== 'GET') {
          expect(res.status, `${method} ${path} (read key)`).toBe(403);
          continue;
        }
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body.error.code).toBe('NOT_FOUND');
        expect(res.text).not.toContain(cb.url);
      }
    }
    expect((await read(owner, cb.id)).body.data).toEqual(snapshot);
    expect(verifies(cb.signing_secret, (await render(owner, cb.id)).body.data)).toBe(true);
    expect((await list(intruder)).body.data.count).toBe(0);
  });

  it('enforces the callback count limit per plan', async () => {
    const starter = await app.createOrg({ plan: 'starter' });
    const first = await made(starter, { name: 'Only' });
    const second = await create(starter, { name: 'Second', url: `${receiver.url}/2` });
    expect(second.status).toBe(403);
    expect(second.body.error).toMatchObject({ code: 'PLAN_LIMIT', details: { limit: 1, current: 1 } });
    expect(await countAll(starter)).toBe(1);
    // Deleting frees the slot.
    expect((await app.request('DELETE', `/v1/callbacks/${first.id}`, { key: starter.key })).status).toBe(200);
    await made(starter, { name: 'Replacement', enabled: false });
    // A disabled callback still takes its slot.
    const third = await create(starter, { name: 'Third', url: `${receiver.url}/3` });
    expect(third.status).toBe(403);
    expect(third.body.error).toMatchObject({ code: 'PLAN_LIMIT', details: { limit: 1, current: 1 } });

    const growth = await app.createOrg({ plan: 'growth' });
    for (const n of [1, 2, 3]) await made(growth, { name: `G${n}` });
    const fourth = await create(growth, { name: 'G4', url: `${receiver.url}/4` });
    expect(fourth.status).toBe(403);
    expect(fourth.body.error).toMatchObject({ code: 'PLAN_LIMIT', details: { limit: 3, current: 3 } });
    expect(await countAll(growth)).toBe(3);
  });

  it('enforces timeout_ms between 1,000 and the plan ceiling, on create and on update', async () => {
    for (const [plan, ceiling] of [
      ['starter', 5_000],
      ['growth', 5_000],
      ['pro', 15_000],
      ['business', 30_000],
    ] as const) {
      const org = await app.createOrg({ plan });
      for (const timeout of [999, 0, -1, ceiling + 1]) {
        const res = await create(org, { name: 'T', url: `${receiver.url}/t`, timeout_ms: timeout });
        expect(res.status, `${plan} ${timeout}`).toBe(400);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
        expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(['timeout_ms']);
      }
      expect(await countAll(org), plan).toBe(0);
      const ok = await made(org, { timeout_ms: ceiling });
      expect(ok.timeout_ms).toBe(ceiling);
      for (const timeout of [999, ceiling + 1]) {
        const res = await app.request('PATCH', `/v1/callbacks/${ok.id}`, { key: org.key, body: { timeout_ms: timeout } });
        expect(res.status, `${plan} PATCH ${timeout}`).toBe(400);
        expect(res.body.error.details[0].field).toBe('timeout_ms');
      }
      expect((await read(org, ok.id)).body.data.timeout_ms).toBe(ceiling);
      const min = await app.request('PATCH', `/v1/callbacks/${ok.id}`, { key: org.key, body: { timeout_ms: 1000 } });
      expect(min.status).toBe(200);
      expect(min.body.data.timeout_ms).toBe(1000);
    }
  });

  it('validates the create body, naming the snake_case field, and creates nothing', async () => {
    const org = await app.createOrg({ plan: 'business' });
    const url = `${receiver.url}/v`;
    const cases: [Record<string, unknown>, string][] = [
      [{ url }, 'name'],
      [{ name: 'No url' }, 'url'],
      [{ name: 'x'.repeat(101), url }, 'name'],
      [{ name: '', url }, 'name'],
      [{ name: 42, url }, 'name'],
      [{ name: 'Bad', url: 'ftp://example.com/' }, 'url'],
      [{ name: 'Bad', url: 'not a url' }, 'url'],
      [{ name: 'Bad', url: 'javascript:alert(1)' }, 'url'],
      [{ name: 'Bad', url: 7 }, 'url'],
      [{ name: 'Bad', url, priority: 1.5 }, 'priority'],
      [{ name: 'Bad', url, priority: '3' }, 'priority'],
      [{ name: 'Bad', url, payload_template: 'a string' }, 'payload_template'],
      [{ name: 'Bad', url, payload_template: ['an', 'array'] }, 'payload_template'],
      [{ name: 'Bad', url, payload_template: [] }, 'payload_template'],
      [{ name: 'Bad', url, payload_template: 12 }, 'payload_template'],
      [{ name: 'Bad', url, enabled: 'true' }, 'enabled'],
      [{ name: 'Bad', url, enabled: 1 }, 'enabled'],
      [{ name: 'Bad', url, timeout_ms: '5000' }, 'timeout_ms'],
      [{ name: 'Bad', url, timeout_ms: 2500.5 }, 'timeout_ms'],
    ];
    for (const [body, field] of cases) {
      const res = await create(org, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details, JSON.stringify(body)).toContainEqual({ field, message: expect.any(String) });
      expect(res.body.error.details[0].field, JSON.stringify(body)).toBe(field);
    }
    expect(await countAll(org)).toBe(0);
    // Exactly 100 characters is fine.
    expect((await made(org, { name: 'y'.repeat(100) })).name).toBe('y'.repeat(100));
    for (const body of [undefined, 'text', [1, 2]]) {
      const res = await app.request('POST', '/v1/callbacks', { key: org.key, ...(body === undefined ? {} : { body }) });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    expect(await countAll(org)).toBe(1);
  });

  it('validates PATCH the same way and changes nothing', async () => {
    const org = await app.createOrg({ plan: 'growth' });
    const cb = await made(org, { name: 'Stable' });
    const snapshot = (await read(org, cb.id)).body.data;
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: '' }, 'name'],
      [{ url: 'ftp://example.com/' }, 'url'],
      [{ url: 'nope' }, 'url'],
      [{ priority: 2.5 }, 'priority'],
      [{ payload_template: 'string' }, 'payload_template'],
      [{ payload_template: ['x'] }, 'payload_template'],
      [{ enabled: 'false' }, 'enabled'],
      [{ timeout_ms: 'fast' }, 'timeout_ms'],
    ];
    for (const [body, field] of cases) {
      const res = await app.request('PATCH', `/v1/callbacks/${cb.id}`, { key: org.key, body: { ...body } });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details[0].field, JSON.stringify(body)).toBe(field);
    }
    // A valid field next to an invalid one is not applied either.
    const mixed = await app.request('PATCH', `/v1/callbacks/${cb.id}`, { key: org.key, body: { name: 'Changed', priority: 'high' } });
    expect(mixed.status).toBe(400);
    expect((await read(org, cb.id)).body.data).toEqual(snapshot);
  });
});

describe.skipIf(databaseUnavailable)('callbacks: private targets refused (ALLOW_PRIVATE_TARGETS=false)', () => {
  let app: TestApp;
  let org: TestOrg;

  const PRIVATE_URLS = [
    'http://127.0.0.1:9/',
    'http://localhost/',
    'http://10.1.2.3/',
    'http://172.16.0.1/',
    'http://192.168.0.1/',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/',
    'http://[fe80::1]/',
    'http://[::ffff:10.0.0.1]/',
    'http://0.0.0.0/',
    'http://100.64.0.1/',
    'ftp://example.com/',
  ];

  beforeAll(async () => {
    app = await startTestApp({ ALLOW_PRIVATE_TARGETS: 'false' });
    org = await app.createOrg({ plan: 'business' });
  });
  afterAll(() => app?.stop());

  const count = async () => (await app.request('GET', '/v1/callbacks?include_disabled=true', { key: org.key })).body.data.count as number;

  it('refuses to create a callback aimed at a non-public address', async () => {
    for (const url of PRIVATE_URLS) {
      const res = await app.request('POST', '/v1/callbacks', { key: org.key, body: { name: 'SSRF', url } });
      expect(res.status, url).toBe(400);
      expect(res.body.error.code, url).toBe('VALIDATION_ERROR');
      expect(res.body.error.details, url).toEqual([{ field: 'url', message: expect.any(String) }]);
    }
    expect(await count()).toBe(0);
  });

  it('refuses to PATCH a callback url to a non-public address, leaving it unchanged', async () => {
    // A public literal needs no DNS lookup.
    const made = await app.request('POST', '/v1/callbacks', { key: org.key, body: { name: 'Public', url: 'https://1.1.1.1/hook' } });
    expect(made.status, made.text).toBe(201);
    const id = made.body.data.id;
    for (const url of PRIVATE_URLS) {
      const res = await app.request('PATCH', `/v1/callbacks/${id}`, { key: org.key, body: { url } });
      expect(res.status, url).toBe(400);
      expect(res.body.error.code, url).toBe('VALIDATION_ERROR');
      expect(res.body.error.details, url).toEqual([{ field: 'url', message: expect.any(String) }]);
    }
    const after = await app.request('GET', `/v1/callbacks/${id}`, { key: org.key });
    expect(after.body.data.url).toBe('https://1.1.1.1/hook');
    expect(await count()).toBe(1);
  });
});

describe.skipIf(databaseUnavailable)('callbacks: a game server on this machine allowed exactly (ALLOW_PRIVATE_TARGETS=127.0.0.1:<port>)', () => {
  let app: TestApp;
  let org: TestOrg;
  let game: Receiver;

  beforeAll(async () => {
    game = await startReceiver({ status: 200 });
    // The delivery thread too: the list reaches it with the configuration (structured clone).
    app = await startTestApp({ ALLOW_PRIVATE_TARGETS: `127.0.0.1:${new URL(game.url).port}`, DELIVERY_THREAD: 'true' });
    org = await app.createOrg({ plan: 'growth' });
  });
  afterAll(async () => {
    await app?.stop();
    await game?.close();
  });

  it('takes a callback to the listed address and port, delivers to it, and refuses the same address on another port', async () => {
    const provider = await app.request('POST', '/v1/providers', {
      key: org.key,
      body: { key: 'list', name: 'The List', auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
    });
    expect(provider.status, provider.text).toBe(201);
    const callback = await app.request('POST', '/v1/callbacks', { key: org.key, body: { name: 'Survival', url: `${game.url}/vote` } });
    expect(callback.status, callback.text).toBe(201);
    const other = Number(new URL(game.url).port) + 1;
    const refused = await app.request('POST', '/v1/callbacks', { key: org.key, body: { name: 'Lobby', url: `http://127.0.0.1:${other}/vote` } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([{ field: 'url', message: expect.stringContaining(`add 127.0.0.1:${other} to ALLOW_PRIVATE_TARGETS`) }]);
    const local = await app.request('POST', '/v1/callbacks', { key: org.key, body: { name: 'Lobby', url: `http://10.0.0.7:${new URL(game.url).port}/vote` } });
    expect(local.status).toBe(400);

    const vote = await app.request('POST', new URL(provider.body.data.webhook_url).pathname, { body: { user: 'Steve' } });
    expect(vote.status, vote.text).toBe(200);
    const [sent] = await game.waitFor(1, 10_000);
    expect(sent.body).toContain('Steve');
  });
});
