// Replays of captured deliveries, as an attacker who saw one valid delivery would shape them: for every auth
// method and every catalogue template, one real delivery is recorded, then 1,000 seeded mutations of it (method,
// query, body, content type, signature form, timestamp, idempotency headers swapped or stripped) are sent. None may
// record a vote: each is refused (4xx, never 5xx) or answered as a duplicate of the original.
//
// A delivery whose secret travels beside the vote (header, query, url_path) hands that secret to whoever captures
// it, so mutations that change what such a delivery vouches for (its body, or a query source's parameters) would
// be a new vote by a secret holder, not a replay: those are left to signed providers, where the signature covers them.
import { Agent, request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../kit/prng.js';
import { databaseUnavailable, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';
import { signatureHeaders } from '../kit/signing.js';
import { PROVIDER_TEMPLATES, type SignatureFormat } from '../../src/modules/providers/templates/catalogue.js';

const SEED = 0x0a11_ce55;
const MUTATIONS = 1_000;
const VOTER_FIELDS = ['user', 'username', 'player', 'p_resp', 'gtl_resp', 'hytale_username', 'data.user.name', 'voter.username', 'name'];

interface Delivery {
  method: string;
  pathname: string;
  query: [string, string][];
  headers: Record<string, string>;
  body: Buffer;
}

interface Target {
  label: string;
  authMethod: 'header' | 'query' | 'url_path' | 'hmac' | 'votifier';
  payloadSource: 'json' | 'form' | 'query';
  /** hmac: how the site signs (tests' signing kit) and the header names. */
  signing: { format: SignatureFormat; header: string; timestampHeader: string | null } | null;
  captured: Delivery;
  voteId: string;
}

function send(agent: Agent, port: number, d: Delivery): Promise<{ status: number; text: string }> {
  const search = d.query.length ? `?${new URLSearchParams(d.query)}` : '';
  const headers: OutgoingHttpHeaders = { ...d.headers, 'content-length': String(d.body.length) };
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: d.method, path: `${d.pathname}${search}`, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(d.body);
  });
}

const clone = (d: Delivery): Delivery => ({ ...d, query: d.query.map(([k, v]) => [k, v]), headers: { ...d.headers }, body: Buffer.from(d.body) });

describe.skipIf(databaseUnavailable)('hook replays: 1,000 mutations of captured deliveries record nothing new', () => {
  let app: TestApp;
  let org: TestOrg;
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  const targets: Target[] = [];

  async function addTarget(
    label: string,
    body: Record<string, unknown>,
    deliver: (secret: string, pathname: string, query: [string, string][]) => Delivery,
  ): Promise<void> {
    const res = await app.request('POST', '/v1/providers', { key: org.key, body });
    expect(res.status, `${label}: ${res.text}`).toBe(201);
    const url = new URL(res.body.data.webhook_url);
    const read = await app.request('GET', `/v1/providers/${res.body.data.key}`, { key: org.key });
    const provider = read.body.data;
    const captured = deliver(res.body.data.auth_value, url.pathname, [...url.searchParams.entries()]);
    const first = await send(agent, app.port, captured);
    expect(first.status, `${label}: ${first.text}`).toBe(200);
    const receipt = JSON.parse(first.text).data;
    expect(receipt.duplicate, label).toBe(false);
    const timestampHeader: string | null = provider.auth_timestamp_field ?? null;
    const format: SignatureFormat = provider.signature_format === 'topgg' ? 'topgg' : timestampHeader ? 'sha256_hex' : 'hex';
    targets.push({
      label,
      authMethod: provider.auth_method,
      payloadSource: provider.payload_source,
      signing: provider.auth_method === 'hmac' ? { format, header: provider.auth_field, timestampHeader } : null,
      captured,
      voteId: receipt.vote_id,
    });
  }

  /** The captured delivery of a template's own example, sent as its site sends it. */
  function templateDelivery(template: (typeof PROVIDER_TEMPLATES)[number]) {
    return (secret: string, pathname: string, query: [string, string][]): Delivery => {
      const headers: Record<string, string> = {};
      if (template.method === 'GET') {
        const q = [...query, ...Object.entries(template.payloadExample).map(([k, v]) => [k, String(v)] as [string, string])];
        return { method: 'GET', pathname, query: q, headers, body: Buffer.alloc(0) };
      }
      if (template.authMethod === 'votifier') {
        // Votifier v2 over HTTP: the example as the signed payload string, stamped now.
        const payload = JSON.stringify({ ...template.payloadExample, timestamp: Date.now() });
        const message = JSON.stringify({ payload, signature: createHmac('sha256', secret).update(payload).digest('base64') });
        return { method: 'POST', pathname, query, headers: { 'content-type': 'application/json' }, body: Buffer.from(message) };
      }
      const body = JSON.stringify(
        template.bodyTimestampPath ? { ...template.payloadExample, [template.bodyTimestampPath]: Date.now() } : template.payloadExample,
      );
      headers['content-type'] = 'application/json';
      if (template.authMethod === 'header') headers[template.authField.toLowerCase()] = template.slug === 'discollab' ? `Bearer ${secret}` : secret;
      if (template.authMethod === 'hmac') {
        const signed = signatureHeaders(template.signatureFormat!, secret, body, { header: template.authField, timestampHeader: template.authTimestampField });
        for (const [k, v] of Object.entries(signed)) headers[k.toLowerCase()] = v;
      }
      return { method: 'POST', pathname, query, headers, body: Buffer.from(body) };
    };
  }

  beforeAll(async () => {
    // Every mutation comes from 127.0.0.1: the budgets of refused deliveries per address are lifted here (their
    // own test is in hook-security.test.ts).
    app = await startTestApp({ HOOK_RATE_LIMIT_PER_MINUTE: '1000000', HOOK_FAILURE_LIMIT_PER_MINUTE: '1000000', IP_RATE_LIMIT_PER_MINUTE: '1000000' });
    org = await app.createOrg({ plan: 'business' });
    const json = (user: string) => Buffer.from(JSON.stringify({ user, id: randomBytes(6).toString('hex') }));
    const post = (pathname: string, query: [string, string][], headers: Record<string, string>, body: Buffer): Delivery => ({
      method: 'POST',
      pathname,
      query,
      headers,
      body,
    });
    const sign = (secret: string, content: Buffer | string) => createHmac('sha256', secret).update(content).digest('hex');

    await addTarget('header/json', { key: 'm-header', name: 'h', auth_method: 'header', auth_field: 'X-Secret', votee_path: 'user' }, (s, p, q) =>
      post(p, q, { 'content-type': 'application/json', 'x-secret': s }, json('HeaderVoter')),
    );
    await addTarget(
      'header/form',
      { key: 'm-header-form', name: 'h', auth_method: 'header', auth_field: 'X-Secret', votee_path: 'user', payload_source: 'form' },
      (s, p, q) => post(p, q, { 'content-type': 'application/x-www-form-urlencoded', 'x-secret': s }, Buffer.from('user=FormVoter&id=1')),
    );
    await addTarget('query/query', { key: 'm-query', name: 'q', auth_method: 'query', auth_field: 'token', votee_path: 'player' }, (_s, p, q) => ({
      method: 'GET',
      pathname: p,
      query: [...q, ['player', 'QueryVoter'], ['ip', '203.0.113.9']],
      headers: {},
      body: Buffer.alloc(0),
    }));
    await addTarget(
      'query/json',
      { key: 'm-query-json', name: 'q', auth_method: 'query', auth_field: 'token', votee_path: 'user', payload_source: 'json' },
      (_s, p, q) => post(p, q, { 'content-type': 'application/json' }, json('QueryJsonVoter')),
    );
    await addTarget('url_path/json', { key: 'm-path', name: 'p', auth_method: 'url_path', auth_field: 'secret', votee_path: 'user' }, (_s, p, q) =>
      post(p, q, { 'content-type': 'application/json' }, json('PathVoter')),
    );
    await addTarget('hmac/plain', { key: 'm-hmac', name: 's', auth_method: 'hmac', auth_field: 'X-Signature', votee_path: 'user' }, (s, p, q) => {
      const body = json('HmacVoter');
      return post(p, q, { 'content-type': 'application/json', 'x-signature': sign(s, body) }, body);
    });
    await addTarget(
      'hmac/timestamped',
      { key: 'm-hmac-ts', name: 's', auth_method: 'hmac', auth_field: 'X-Sig', auth_timestamp_field: 'X-Sig-Timestamp', votee_path: 'user' },
      (s, p, q) => {
        const body = json('StampVoter');
        const t = Math.floor(Date.now() / 1000);
        return post(p, q, { 'content-type': 'application/json', 'x-sig': `sha256=${sign(s, `${t}.${body}`)}`, 'x-sig-timestamp': String(t) }, body);
      },
    );
    await addTarget(
      'hmac/form',
      { key: 'm-hmac-form', name: 's', auth_method: 'hmac', auth_field: 'X-Signature', votee_path: 'user', payload_source: 'form' },
      (s, p, q) => {
        const body = Buffer.from('user=SignedFormVoter&id=2');
        return post(p, q, { 'content-type': 'application/x-www-form-urlencoded', 'x-signature': sign(s, body) }, body);
      },
    );
    for (const template of PROVIDER_TEMPLATES) {
      const secret = template.authKeySource === null ? `${template.slug === 'topgg' ? 'whs_' : ''}${randomBytes(24).toString('base64url')}` : undefined;
      await addTarget(
        `template ${template.slug}`,
        { template: template.slug, key: `t-${template.slug}`, ...(secret ? { auth_value: secret } : {}) },
        (s, p, q) => templateDelivery(template)(secret ?? s, p, q),
      );
    }
  });
  afterAll(async () => {
    agent.destroy();
    await app?.stop();
  });

  function mutate(target: Target, rand: () => number): { delivery: Delivery; changes: string[] } {
    const int = (n: number) => Math.floor(rand() * n);
    const pick = <T>(items: readonly T[]): T => items[int(items.length)];
    const d = clone(target.captured);
    const changes: string[] = [];
    // The body itself is signed (hmac) or is the signed message (votifier).
    const signed = target.authMethod === 'hmac' || target.authMethod === 'votifier';
    const queryIsContent = target.payloadSource === 'query';
    const bodyIsContent = !queryIsContent && !signed; // an unsigned body is a secret holder's to change: see the top

    const mutations: (() => void)[] = [
      () => {
        d.method = pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'GET']);
        changes.push(`method ${d.method}`);
      },
      () => {
        if (queryIsContent) {
          // Only names the delivery already has (a later duplicate never replaces the first) and reordering.
          // (Reordering only before any duplicate is added: reversing after one would put Mallory first.)
          if (rand() < 0.5 && !changes.some((c) => c.startsWith('query dup'))) d.query.reverse();
          const [name] = pick(d.query.filter(([k]) => k !== 'token'));
          d.query.push([name, 'Mallory']);
          changes.push(`query dup ${name}`);
        } else {
          for (const field of VOTER_FIELDS.slice(0, 1 + int(VOTER_FIELDS.length))) d.query.push([field, `Mallory${int(1000)}`]);
          changes.push('query voter');
        }
      },
      () => {
        if (bodyIsContent) return;
        const variants = [
          () => Buffer.from(JSON.stringify({ user: 'Mallory', username: 'Mallory', data: { user: { name: 'Mallory' } }, p_resp: 'Mallory' })),
          () => Buffer.from(`${d.body.toString('utf8')} `),
          () => Buffer.from('user=Mallory&username=Mallory&player=Mallory'),
          () => Buffer.from(`${Math.floor(Date.now() / 1000)}.${d.body.toString('utf8')}`),
          () => Buffer.alloc(0),
        ];
        d.body = pick(variants)();
        changes.push('body');
      },
      () => {
        const type = pick(['application/json', 'application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x', '']);
        if (type) d.headers['content-type'] = type;
        else delete d.headers['content-type'];
        changes.push(`content-type ${type || 'none'}`);
      },
      () => {
        if (!target.signing) return;
        const header = target.signing.header.toLowerCase();
        const value = d.headers[header] ?? '';
        const hex = /[0-9a-f]{64}/i.exec(value)?.[0] ?? '';
        const stampedT = /t=(\d+)/.exec(value)?.[1];
        const forms = [
          hex,
          `sha256=${hex}`,
          Buffer.from(hex, 'hex').toString('base64'),
          Buffer.from(hex, 'hex').toString('base64url'),
          `t=${stampedT ?? Math.floor(Date.now() / 1000)},v1=${hex}`,
          `v1=${hex}`,
          `${hex},${hex}`,
        ];
        d.headers[header] = pick(forms);
        // The stripped top.gg form carries its timestamp into the body, as the probe did.
        if (stampedT && rand() < 0.5) d.body = Buffer.from(`${stampedT}.${d.body.toString('utf8')}`);
        changes.push('signature form');
      },
      () => {
        if (!target.signing) return;
        const ts = target.signing.timestampHeader?.toLowerCase();
        const now = Math.floor(Date.now() / 1000);
        if (ts) {
          if (rand() < 0.5) delete d.headers[ts];
          else d.headers[ts] = String(pick([now, now - 3600, now + 10, 0]));
        } else {
          const header = target.signing.header.toLowerCase();
          d.headers[header] = d.headers[header].replace(/t=\d+/, `t=${pick([now, now - 3600, now + 10])}`);
        }
        changes.push('timestamp');
      },
      () => {
        const choice = int(4);
        if (choice === 0) d.headers['idempotency-key'] = randomBytes(8).toString('hex');
        else if (choice === 1) d.headers['webhook-id'] = `msg_${randomBytes(8).toString('hex')}`;
        else if (choice === 2) {
          d.headers['idempotency-key'] = randomBytes(8).toString('hex');
          d.headers['webhook-id'] = randomBytes(8).toString('hex');
        } else {
          delete d.headers['idempotency-key'];
          delete d.headers['webhook-id'];
        }
        changes.push('idempotency');
      },
    ];
    const count = 1 + int(3);
    for (let i = 0; i < count; i++) pick(mutations)();
    return { delivery: d, changes };
  }

  it('1,000 replay-shaped mutations: each refused or a duplicate of its original, nothing recorded', async () => {
    const before = await app.deps.db.prisma.vote.count({ where: { organizationId: org.id } });
    expect(before).toBe(targets.length);
    const rand = mulberry32(SEED);
    const work = Array.from({ length: MUTATIONS }, (_, i) => {
      const target = targets[i % targets.length];
      return { target, ...mutate(target, rand) };
    });
    const problems: string[] = [];
    const outcomes = new Map<string, number>();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < work.length) {
          const { target, delivery, changes } = work[next++];
          const res = await send(agent, app.port, delivery);
          let parsed: any = null;
          try {
            parsed = JSON.parse(res.text);
          } catch {
            // judged below
          }
          const key = res.status === 200 ? 'duplicate' : String(res.status);
          outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
          const ok =
            (res.status >= 400 && res.status < 500 && typeof parsed?.error?.code === 'string') ||
            (res.status === 200 && parsed?.data?.duplicate === true && parsed.data.vote_id === target.voteId) ||
            (res.status === 200 && (parsed?.data?.test === true || parsed?.data?.ignored === true));
          if (!ok) problems.push(`${target.label} [${changes.join(', ')}] → ${res.status} ${res.text.slice(0, 200)}`);
        }
      }),
    );
    expect(problems).toEqual([]);
    // Both outcomes occur: refusals, and replays that authenticate but are only the original again.
    expect(outcomes.get('duplicate') ?? 0).toBeGreaterThan(0);
    expect([...outcomes.keys()].some((k) => k.startsWith('4'))).toBe(true);
    expect(await app.deps.db.prisma.vote.count({ where: { organizationId: org.id } })).toBe(before);
    expect(await app.deps.db.prisma.vote.count({ where: { organizationId: org.id, voterName: { startsWith: 'Mallory' } } })).toBe(0);
  });
});
