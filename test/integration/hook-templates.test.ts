// Every built-in template, end to end: create a provider from it, then deliver its payload example exactly as
// that site does (method, body, auth), a test ping where the site sends one, and a forged signature for hmac.
import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable, startTestApp, type ApiResponse, type TestApp, type TestOrg } from '../kit/app.js';
import { signatureHeaders } from '../kit/signing.js';
import { PROVIDER_TEMPLATES, type ProviderTemplate } from '../../src/modules/providers/templates/catalogue.js';

/** 40 URL-safe characters (a site-issued secret); top.gg's current secrets start with whs_. */
function siteSecret(template: ProviderTemplate): string {
  const secret = randomBytes(30).toString('base64url');
  return template.slug === 'topgg' ? `whs_${secret.slice(4)}` : secret;
}

/** Value at a plain dotted path (the catalogue's paths use no `$.` or `[n]`). */
function valueAt(payload: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((node, key) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), payload);
}

/** A deep copy of the example with the event field set to what the site sends for a test ping. */
function testPing(template: ProviderTemplate): Record<string, unknown> {
  const ping = structuredClone(template.payloadExample) as Record<string, unknown>;
  const keys = template.eventPath!.split('.');
  const last = keys.pop()!;
  const parent = keys.reduce<Record<string, unknown>>((node, key) => node[key] as Record<string, unknown>, ping);
  parent[last] = typeof parent[last] === 'boolean' ? true : template.testEvents![0];
  return ping;
}

const stamps = new Map<string, number>();
/** A body timestamp for a template's deliveries in this run (the same one, so a repeat is the same body). */
const stampOf = (slug: string) => stamps.get(slug) ?? stamps.set(slug, Date.now()).get(slug)!;

/** Votifier deliveries over HTTP carry no challenge, so their timestamp must be recent: one "now" for the run. */
const VOTIFIER_NOW = Date.now();

interface Created {
  secret: string;
  webhookUrl: URL;
  providerId: string;
}

describe.skipIf(databaseUnavailable)("provider templates: each site's own delivery is recorded", () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  /** The webhook_url from the 201 response, on this test app's origin (HOOK_BASE_URL points elsewhere). */
  function onApp(webhookUrl: string): URL {
    const given = new URL(webhookUrl);
    expect(given.pathname.startsWith('/hooks/')).toBe(true);
    return new URL(`${given.pathname}${given.search}`, app.url);
  }

  async function createFromTemplate(org: TestOrg, template: ProviderTemplate, index: number): Promise<Created> {
    let body: Record<string, unknown>;
    let expectedSecret: string | null = null;
    if (template.authKeySource === null) {
      // The site issues the secret: the relay cannot invent one.
      for (const attempt of [{ template: template.slug }, { template: template.slug, auth_value: 'auto' }]) {
        const refused = await app.request('POST', '/v1/providers', { key: org.key, body: attempt });
        expect(refused.status, JSON.stringify(attempt)).toBe(400);
        expect(refused.body.error.code).toBe('VALIDATION_ERROR');
        expect(refused.body.error.details.map((d: { field: string }) => d.field)).toContain('auth_value');
      }
      const none = await app.request('GET', '/v1/providers', { key: org.key });
      expect(none.body.data.count).toBe(0);
      expectedSecret = siteSecret(template);
      body = { template: template.slug, auth_value: expectedSecret };
    } else {
      // Generated: alternate between leaving auth_value out and asking for "auto".
      body = index % 2 === 0 ? { template: template.slug } : { template: template.slug, auth_value: 'auto' };
    }
    const res = await app.request('POST', '/v1/providers', { key: org.key, body });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({
      id: expect.any(String),
      key: template.slug,
      name: template.name,
      auth_value: expect.any(String),
      webhook_url: expect.any(String),
    });
    const secret: string = res.body.data.auth_value;
    if (expectedSecret !== null) expect(secret).toBe(expectedSecret);
    else if (template.authMethod === 'votifier')
      expect(secret).toMatch(/^[0-9a-v]{20,27}$/); // a NuVotifier-style token
    else expect(secret).toMatch(/^[A-Za-z0-9_-]{43,}$/); // ≥ 32 random bytes, URL-safe
    const webhookUrl = onApp(res.body.data.webhook_url);
    expect(webhookUrl.pathname).toBe(`/hooks/${org.slug}/${template.slug}${template.authMethod === 'url_path' ? `/${encodeURIComponent(secret)}` : ''}`);
    if (template.authMethod === 'query') expect(webhookUrl.searchParams.get(template.authField)).toBe(secret);
    else expect(webhookUrl.search).toBe('');
    return { secret, webhookUrl, providerId: res.body.data.id };
  }

  /** Sends `payload` the way the template's site does, authenticated with `secret`. */
  function deliver(template: ProviderTemplate, created: Created, payload: Record<string, unknown>, secret = created.secret): Promise<ApiResponse> {
    const url = new URL(created.webhookUrl);
    const headers: Record<string, string> = {};
    if (template.authMethod === 'query') url.searchParams.set(template.authField, secret);
    if (template.authMethod === 'url_path') url.pathname = url.pathname.replace(/\/[^/]*$/, `/${encodeURIComponent(secret)}`);
    if (template.method === 'GET') {
      for (const [name, value] of Object.entries(payload)) url.searchParams.append(name, String(value));
      if (template.authMethod === 'header') headers[template.authField] = secret;
      return app.request('GET', `${url.pathname}${url.search}`, { headers });
    }
    if (template.authMethod === 'votifier') {
      // Votifier v2 over HTTP: the vote as the signed payload string, stamped now (older votes are refused).
      const signedPayload = JSON.stringify({ ...payload, timestamp: VOTIFIER_NOW });
      const signature = createHmac('sha256', secret).update(signedPayload).digest('base64');
      return app.request('POST', url.pathname, {
        rawBody: JSON.stringify({ payload: signedPayload, signature }),
        headers: { 'content-type': 'application/json' },
      });
    }
    // A site that signs a body timestamp sends it fresh (older ones are refused): one stamp per template per run.
    const stamp = template.bodyTimestampPath ? { [template.bodyTimestampPath]: stampOf(template.slug) } : {};
    const body = JSON.stringify({ ...payload, ...stamp });
    headers['content-type'] = 'application/json';
    if (template.authMethod === 'header') headers[template.authField] = template.slug === 'discollab' ? `Bearer ${secret}` : secret;
    if (template.authMethod === 'hmac') {
      Object.assign(
        headers,
        signatureHeaders(template.signatureFormat!, secret, body, { header: template.authField, timestampHeader: template.authTimestampField }),
      );
    }
    return app.request('POST', `${url.pathname}${url.search}`, { rawBody: body, headers });
  }

  const countVotes = (org: TestOrg) => app.deps.db.prisma.vote.count({ where: { organizationId: org.id } });

  it('covers every catalogue entry', () => {
    expect(PROVIDER_TEMPLATES.length).toBeGreaterThanOrEqual(11);
    expect(new Set(PROVIDER_TEMPLATES.map((t) => t.slug)).size).toBe(PROVIDER_TEMPLATES.length);
  });

  it.each(PROVIDER_TEMPLATES.map((template, index) => ({ slug: template.slug, template, index })))(
    '$slug: vote, test ping and forged signature as the site sends them',
    async ({ template, index }) => {
      const org = await app.createOrg({ plan: 'business' });
      const created = await createFromTemplate(org, template, index);

      // 1. The site's own example is a vote.
      const res = await deliver(template, created, template.payloadExample);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ data: { received: true, vote_id: expect.stringMatching(/^vt_[0-9a-f-]{36}$/), duplicate: false } });
      expect(await countVotes(org)).toBe(1);
      const [vote] = await app.deps.db.prisma.vote.findMany({ where: { organizationId: org.id } });
      const expectedVoter = valueAt(template.payloadExample, template.defaultVoteePath);
      expect(['string', 'number']).toContain(typeof expectedVoter);
      expect(vote.voterName).toBe(String(expectedVoter));
      expect(vote.publicId).toBe(res.body.data.vote_id);
      expect(vote.providerId).toBe(created.providerId);

      // The site retrying the same delivery gets the first vote back and records nothing new.
      const again = await deliver(template, created, template.payloadExample);
      expect(again.status, again.text).toBe(200);
      expect(again.body).toEqual({ data: { received: true, vote_id: vote.publicId, duplicate: true } });
      expect(await countVotes(org)).toBe(1);

      // 2. The site's test ping is answered as a test and records nothing.
      if (template.testEvents && template.testEvents.length > 0) {
        expect(template.eventPath).not.toBeNull();
        const ping = await deliver(template, created, testPing(template));
        expect(ping.status, ping.text).toBe(200);
        expect(ping.body).toEqual({ data: { received: true, test: true } });
        expect(await countVotes(org)).toBe(1);
      }

      // 3. A signature made with another secret is refused and records nothing.
      if (template.authMethod === 'votifier') {
        const wrong = await deliver(template, created, template.payloadExample, siteSecret(template));
        expect(wrong.status, wrong.text).toBe(401);
        expect(await countVotes(org)).toBe(1);
      }
      if (template.authMethod === 'hmac') {
        const forged = { ...template.payloadExample, forged: true };
        const wrong = await deliver(template, created, forged, siteSecret(template));
        expect(wrong.status, wrong.text).toBe(401);
        expect(wrong.body.error).toMatchObject({ code: 'AUTH_FAILED', message: expect.any(String) });
        const sameBody = await deliver(template, created, template.payloadExample, siteSecret(template));
        expect(sameBody.status, sameBody.text).toBe(401);
        expect(sameBody.body.error.code).toBe('AUTH_FAILED');
        expect(await countVotes(org)).toBe(1);
      }
    },
  );
});

describe.skipIf(databaseUnavailable)('sendTestVote: each template example, authenticated as its site does', () => {
  let app: TestApp;
  /** The service's clock runs this far ahead of the real one: each repeat below is sent 151 s later. */
  let ahead = 0;
  beforeAll(async () => {
    app = await startTestApp({}, { clock: { now: () => new Date(Date.now() + ahead) } });
  });
  afterAll(() => app?.stop());

  it('every template: the example is received through the real hook path, and a repeat is a duplicate', async () => {
    const org = await app.createOrg({ plan: 'business' });
    const send = (key: string, apiKey = org.key) =>
      app.request('POST', '/graphql', { key: apiKey, body: { query: `mutation { sendTestVote(key: "${key}") { received voteId duplicate test ignored } }` } });
    for (const template of PROVIDER_TEMPLATES) {
      const body = template.authKeySource === null ? { template: template.slug, auth_value: siteSecret(template) } : { template: template.slug };
      expect((await app.request('POST', '/v1/providers', { key: org.key, body })).status, template.slug).toBe(201);
      const first = await send(template.slug);
      expect(first.body.errors, `${template.slug}: ${first.text}`).toBeUndefined();
      const receipt = first.body.data.sendTestVote;
      expect(receipt.received).toBe(true);
      // Every template's test vote is a vote (never the site's test ping), stored as a test vote for the default
      // test voter, put where the site puts the voter (README "Test votes").
      expect(receipt.voteId, `${template.slug}: ${first.text}`).toMatch(/^vt_/);
      const vote = await app.deps.db.prisma.vote.findUniqueOrThrow({ where: { publicId: receipt.voteId } });
      expect([vote.voterName, vote.test], template.slug).toEqual(['VoteRelayTest', true]);
      expect(valueAt(JSON.parse(vote.rawPayload), template.authMethod === 'votifier' ? 'username' : template.defaultVoteePath), template.slug).toBe(
        'VoteRelayTest',
      );
      // A repeat is the same test vote even when a body timestamp's stamp (150 s steps for a 300 s maximum age) has
      // moved on between the two: the stamp is the test's own, not the site's.
      ahead += 151_000;
      const again = await send(template.slug);
      expect(again.body.data.sendTestVote, template.slug).toMatchObject({ voteId: receipt.voteId, duplicate: true });
    }
    const refused = await send('topgg', org.readKey);
    expect(refused.body.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
  });
});
