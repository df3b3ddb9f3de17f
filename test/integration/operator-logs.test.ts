// What an operator reads in the service's log (README "Logs"): the start-up banner of a started process, one line
// per refused hook delivery held to one per provider and address with the count left out, a delivery's first
// failure and its give-up, stored votes at debug only, readable lines with LOG_FORMAT=pretty; and, over a whole run
// that used every kind of secret, none of them, nor any body, anywhere in the log.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOwnPostgresDatabase,
  databaseUnavailable,
  dialect,
  startTestApp,
  testDatabaseUrl,
  TEST_SECRET_KEY,
  type TestApp,
  type TestOrg,
} from '../kit/app.js';
import { listedVote, startFakeTopgg, type FakeTopgg } from '../kit/fake-topgg.js';
import { nodeArgs, ROOT, runCli, serviceEntry, startServerProcess } from '../kit/processes.js';
import { startReceiver, type Receiver } from '../kit/receiver.js';
import { signatureHeaders } from '../kit/signing.js';
import { until } from '../kit/wait.js';
import { createLogger, resolveLogFormat } from '../../src/base/logger.js';
import { PROVIDER_TEMPLATES } from '../../src/modules/providers/templates/catalogue.js';
import { createHookObservers, type HookObservation } from '../../src/modules/hook-requests/observation.js';
import { logHookOutcomes } from '../../src/modules/hook-requests/log-lines.js';

interface LogEntry {
  level: number;
  msg: string;
  [field: string]: any;
}

const INFO = 30;
const WARN = 40;
const ERROR = 50;
const DEBUG = 20;
const secretText = (prefix = '') => `${prefix}${randomBytes(24).toString('base64url')}`;
const topgg = PROVIDER_TEMPLATES.find((t) => t.slug === 'topgg')!;

describe.skipIf(databaseUnavailable)('operator logs', () => {
  describe('a whole run, read from the log', () => {
    let app: TestApp;
    let chat: Receiver;
    let game: Receiver;
    const logged: string[] = [];
    const entries = () => logged.map((line) => JSON.parse(line) as LogEntry);
    /** Every secret and body the run used: none may appear in the log. */
    const secrets = new Map<string, string>();
    let org: TestOrg;
    const stored: { id: string; voter: string }[] = [];
    const FLOOD_ADDRESS = '203.0.113.9';
    const LEFT_OUT_ADDRESS = '198.51.100.23';
    const WRONG_SECRET_TRIES = 7;

    beforeAll(async () => {
      chat = await startReceiver({ status: 500, body: { message: 'chat is down' } });
      game = await startReceiver({ status: 500, body: { error: 'game server is down' } });
      // A logger writing JSON lines into memory, at debug: the run's whole log, stored votes included.
      const logger = createLogger('debug', { format: 'json', destination: { write: (line: string) => void logged.push(line) } });
      app = await startTestApp({ RETRY_SCHEDULE: '100ms,100ms', RETRY_JITTER: '0', DELIVERY_POLL_MS: '50', CHAT_MAX_ATTEMPTS: '2' }, { logger });
    });
    afterAll(async () => {
      await app?.stop();
      await chat?.close();
      await game?.close();
    });

    it('says at info what an owner needs, at debug each stored vote, and never a secret or a body', async () => {
      org = await app.createOrg({ plan: 'business' });
      secrets.set('full API key', org.key);
      secrets.set('read API key', org.readKey);
      const made = await app.request('POST', '/v1/api-keys', { key: org.key, body: { name: 'ci', scope: 'read' } });
      expect(made.status, made.text).toBe(201);
      secrets.set('created API key', made.body.data.key);
      const plugin = await app.request('POST', '/v1/plugin-tokens', { key: org.key, body: { name: 'Survival' } });
      expect(plugin.status, plugin.text).toBe(201);
      secrets.set('plugin token', plugin.body.data.token);

      // Chat and the game server both answer 500; the chat URL carries its token in the path as Discord's do.
      const chatToken = secretText('chattoken');
      secrets.set('chat webhook token', chatToken);
      const settings = await app.request('PATCH', '/v1/organization', {
        key: org.key,
        body: { settings: { chat_webhook_url: `${chat.url}/api/webhooks/123456789/${chatToken}` } },
      });
      expect(settings.status, settings.text).toBe(200);
      const queryToken = secretText('querytoken');
      const authSecret = secretText('authsecret');
      secrets.set('callback URL query token', queryToken);
      secrets.set('callback auth_secret', authSecret);
      const callback = await app.request('POST', '/v1/callbacks', {
        key: org.key,
        body: { name: 'Game server', url: `${game.url}/reward?token=${queryToken}`, auth_secret: authSecret },
      });
      expect(callback.status, callback.text).toBe(201);
      secrets.set('callback signing secret', callback.body.data.signing_secret);

      // Providers: a header secret, top.gg's HMAC signature, and a secret in the URL path.
      const headerSecret = secretText('headersecret');
      secrets.set('header provider secret', headerSecret);
      const header = await app.request('POST', '/v1/providers', {
        key: org.key,
        body: { key: 'site', name: 'Site', auth_method: 'header', auth_field: 'X-Vote-Secret', votee_path: 'user', auth_value: headerSecret },
      });
      expect(header.status, header.text).toBe(201);
      const topggSecret = `whs_${randomBytes(24).toString('base64url')}`;
      secrets.set('top.gg webhook secret', topggSecret);
      const top = await app.request('POST', '/v1/providers', { key: org.key, body: { template: 'topgg', auth_value: topggSecret } });
      expect(top.status, top.text).toBe(201);
      const paths = await app.request('POST', '/v1/providers', {
        key: org.key,
        body: { key: 'paths', name: 'Paths', auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
      });
      expect(paths.status, paths.text).toBe(201);
      secrets.set('url_path provider secret', paths.body.data.auth_value);

      // Accepted votes, each body carrying a marker that must never be logged.
      const hook = (key: string) => `/hooks/${org.slug}/${key}`;
      const bodyMarker = secretText('bodymarker');
      secrets.set('a vote body', bodyMarker);
      for (const voter of ['Alice', 'Bob']) {
        const res = await app.request('POST', hook('site'), {
          rawBody: JSON.stringify({ user: voter, note: bodyMarker }),
          headers: { 'content-type': 'application/json', 'x-vote-secret': headerSecret },
        });
        expect(res.status, res.text).toBe(200);
        stored.push({ id: res.body.data.vote_id, voter });
      }
      const topBody = JSON.stringify({
        ...topgg.payloadExample,
        data: { ...(topgg.payloadExample as any).data, id: String(Date.now()), user: { ...(topgg.payloadExample as any).data.user, name: 'Carol' } },
        note: bodyMarker,
      });
      const signed = signatureHeaders('topgg', topggSecret, topBody, { header: topgg.authField });
      secrets.set('top.gg signature', Object.values(signed)[0].split('v1=')[1]);
      const topRes = await app.request('POST', hook('topgg'), { rawBody: topBody, headers: { 'content-type': 'application/json', ...signed } });
      expect(topRes.status, topRes.text).toBe(200);
      stored.push({ id: topRes.body.data.vote_id, voter: 'Carol' });
      const pathRes = await app.request('POST', new URL(paths.body.data.webhook_url).pathname, { body: { user: 'Dave', note: bodyMarker } });
      expect(pathRes.status, pathRes.text).toBe(200);
      stored.push({ id: pathRes.body.data.vote_id, voter: 'Dave' });

      // Refused: a wrong secret again and again from one address (behind the loopback proxy), a forged top.gg
      // signature, a guessed path secret, an unknown slug, an unknown provider key, and a body over 64 KiB.
      const stranger = `Mallory${randomBytes(4).toString('hex')}`;
      const wrongSecret = secretText('wrongsecret');
      secrets.set('a wrong secret sent', wrongSecret);
      for (let i = 0; i < WRONG_SECRET_TRIES; i++) {
        const res = await app.request('POST', hook('site'), {
          rawBody: JSON.stringify({ user: stranger, note: bodyMarker }),
          headers: { 'content-type': 'application/json', 'x-vote-secret': wrongSecret, 'x-forwarded-for': FLOOD_ADDRESS },
        });
        expect(res.status).toBe(401);
      }
      const forged = signatureHeaders('topgg', 'whs_not-the-secret', topBody, { header: topgg.authField });
      expect((await app.request('POST', hook('topgg'), { rawBody: topBody, headers: { 'content-type': 'application/json', ...forged } })).status).toBe(401);
      const guessed = secretText('guessedpath');
      secrets.set('a guessed path secret', guessed);
      expect((await app.request('POST', `${hook('paths')}/${guessed}`, { body: { user: 'Eve' } })).status).toBe(401);
      const unknownSlug = `nobody-${randomBytes(4).toString('hex')}`;
      expect((await app.request('POST', `/hooks/${unknownSlug}/site`, { body: { user: 'Eve' } })).status).toBe(404);
      expect((await app.request('POST', hook('sitte'), { body: { user: 'Eve' } })).status).toBe(404);
      // The slug left out of a url_path hook URL: /hooks/<key>/<secret> reads the key as a slug and the secret as a key.
      const slugLeftOut = `/hooks/paths/${paths.body.data.auth_value}`;
      // (From an address of its own: refusals naming no organization share one line per address and 10 s.)
      expect((await app.request('POST', slugLeftOut, { body: { user: 'Eve' }, headers: { 'x-forwarded-for': LEFT_OUT_ADDRESS } })).status).toBe(404);
      const bigMarker = secretText('bigbody');
      secrets.set('an oversized body', bigMarker);
      const big = await app.request('POST', hook('site'), {
        rawBody: `{"user":"Eve","pad":"${bigMarker}${'x'.repeat(70_000)}"}`,
        headers: { 'content-type': 'application/json', 'x-vote-secret': headerSecret },
      });
      expect(big.status).toBe(413);

      // The callback fails three times (RETRY_SCHEDULE of two waits), chat twice: both are given up.
      const gaveUp = (what: RegExp) => entries().some((e) => e.level === ERROR && what.test(e.msg) && /failed for good/.test(e.msg));
      await until(
        async () => [gaveUp(/^callback "Game server"/), gaveUp(/^chat notification/)],
        (done) => done.every(Boolean),
        20_000,
      );
      await app.stop(); // prints the counts still held back
      const all = entries();
      const ofOrg = all.filter((e) => e.organization === org.slug || e.msg === 'vote relay listening');
      const atInfo = ofOrg.filter((e) => e.level >= INFO);

      // The banner: every address and the database, with where it lives.
      const banner = all.find((e) => e.msg === 'vote relay listening')!;
      const base = `http://localhost:${app.port}`;
      expect(banner).toMatchObject({
        level: INFO,
        dashboard: `${base}/`,
        api: `${base}/v1`,
        graphql: `${base}/graphql`,
        hooks: `${base}/hooks/<organization>/<provider>`,
        votifier: 'off',
        database: dialect,
      });
      if (dialect === 'sqlite') expect(banner.databaseLocation).toBe(app.deps.db.describe().location);
      else {
        const url = new URL(testDatabaseUrl());
        expect(banner.databaseLocation).toBe(`${url.hostname}:${url.port || '5432'}${url.pathname}`);
      }

      // One line for the run of wrong secrets from one address, then the count of the rest.
      const wrong = atInfo.filter((e) => e.code === 'AUTH_FAILED' && e.provider === 'site');
      expect(wrong, JSON.stringify(wrong)).toHaveLength(1);
      expect(wrong[0]).toMatchObject({
        level: WARN,
        organization: org.slug,
        provider: 'site',
        clientIp: FLOOD_ADDRESS,
        status: 401,
        reason: expect.stringContaining('wrong secret'),
      });
      expect(wrong[0].msg).toContain(`hook delivery refused: ${org.slug}/site from ${FLOOD_ADDRESS}`);
      const leftOut = all.find((e) => e.clientIp === FLOOD_ADDRESS && e.alsoRefused);
      expect(leftOut, JSON.stringify(all.filter((e) => e.clientIp === FLOOD_ADDRESS))).toBeDefined();
      expect(leftOut!.alsoRefused).toMatchObject({ suppressed: WRONG_SECRET_TRIES - 1, codes: { AUTH_FAILED: WRONG_SECRET_TRIES - 1 } });
      expect(leftOut!.msg).toMatch(
        new RegExp(
          `… and ${WRONG_SECRET_TRIES - 1} more refused hook deliveries to ${org.slug}/site from ${FLOOD_ADDRESS.replace(/\./g, '\\.')} in the last \\d+ s`,
        ),
      );

      const refusedLine = (match: (e: LogEntry) => boolean) => all.find((e) => e.level === WARN && e.msg.startsWith('hook delivery refused') && match(e));
      expect(refusedLine((e) => e.provider === 'topgg' && e.code === 'AUTH_FAILED')?.reason).toContain('bad signature');
      expect(refusedLine((e) => e.provider === 'paths' && e.code === 'AUTH_FAILED')?.reason).toContain('wrong secret');
      // A slug or key is printed only once it named an organization or provider; otherwise only its length (what
      // was typed there may be a secret), in the message and the reason alike.
      const unknownSlugLine = refusedLine((e) => e.organization === `(unknown slug, ${unknownSlug.length} characters)` && e.code === 'NOT_FOUND');
      expect(unknownSlugLine?.hint).toContain('no organization has this slug');
      expect(unknownSlugLine?.msg).not.toContain(unknownSlug);
      const unknownKeyLine = refusedLine((e) => e.organization === org.slug && e.provider === '(unknown key, 5 characters)' && e.code === 'NOT_FOUND');
      expect(unknownKeyLine?.hint).toContain('no provider with this key');
      expect(unknownKeyLine?.reason).toBe('Provider (unknown key, 5 characters) not found');
      expect(all.some((e) => JSON.stringify(e).includes('sitte'))).toBe(false);
      const leftOutLine = refusedLine((e) => e.organization === '(unknown slug, 5 characters)' && e.code === 'NOT_FOUND');
      const secretShown = `(unknown key, ${paths.body.data.auth_value.length} characters)`;
      expect(leftOutLine?.provider).toBe(secretShown);
      // Which check refused it depends on the secret's first character (a key starts with a letter or digit).
      expect([`Organization (unknown slug, 5 characters) not found`, `Provider ${secretShown} not found`]).toContain(leftOutLine?.reason);
      // A body over the limit is refused before it is read, then told under the organization and provider its path names.
      expect(refusedLine((e) => e.code === 'PAYLOAD_TOO_LARGE')).toMatchObject({ organization: org.slug, provider: 'site', status: 413 });
      for (const e of all.filter((l) => l.msg.startsWith('hook delivery refused'))) expect(e.clientIp).toMatch(/127\.0\.0\.1|203\.0\.113\.9|198\.51\.100\.23/);

      // Deliveries: the first failure and the give-up, named by callback and host, never by URL.
      const gameHost = new URL(game.url).host;
      const first = atInfo.find((e) => e.level === WARN && e.callback === 'Game server' && e.attempt === 1);
      expect(first, JSON.stringify(atInfo.filter((e) => e.callback))).toMatchObject({
        target: gameHost,
        status: 500,
        callbackKind: 'http',
        retryAt: expect.any(String),
      });
      expect(first!.msg).toMatch(new RegExp(`^callback "Game server" \\(http\\) to ${gameHost} failed for vote vt_`));
      const given = atInfo.find((e) => e.level === ERROR && e.callback === 'Game server' && /failed for good/.test(e.msg));
      expect(given).toMatchObject({ target: gameHost, attempt: 3, status: 500, error: 'HTTP 500' });
      expect(given!.msg).toContain(`/v1/votes/${given!.voteId}/redeliver`);
      const chatGiven = atInfo.find((e) => e.level === ERROR && e.jobKind === 'chat' && /failed for good/.test(e.msg));
      expect(chatGiven).toMatchObject({ target: new URL(chat.url).host, attempt: 2 });

      // Stored votes are debug lines, one per vote: an info log has none.
      const storedLines = ofOrg.filter((e) => e.msg.startsWith('vote stored'));
      expect(storedLines.map((e) => e.voteId).sort()).toEqual(stored.map((v) => v.id).sort());
      for (const line of storedLines) expect(line).toMatchObject({ level: DEBUG, voter: stored.find((v) => v.id === line.voteId)!.voter });
      expect(atInfo.some((e) => e.msg.startsWith('vote stored'))).toBe(false);

      // Not one secret, key, token, signature or body in the whole log.
      const text = logged.join('');
      for (const [what, value] of secrets) expect(text.includes(value), `${what} appears in the log`).toBe(false);
      expect(text).not.toContain('"x-vote-secret"');
      expect(text).not.toContain(stranger); // a refused body's content
    }, 60_000);
  });

  describe('a flood of refusals from many addresses', () => {
    let app: TestApp;
    const logged: string[] = [];
    beforeAll(async () => {
      const logger = createLogger('info', { format: 'json', destination: { write: (line: string) => void logged.push(line) } });
      app = await startTestApp({}, { logger });
    });
    afterAll(() => app?.stop());

    it('gives each address at most one line per 10 s, and counts every refusal left out', async () => {
      const org = await app.createOrg();
      const made = await app.request('POST', '/v1/providers', {
        key: org.key,
        body: { key: 'site', name: 'Site', auth_method: 'header', auth_field: 'X-Vote-Secret', votee_path: 'user' },
      });
      expect(made.status, made.text).toBe(201);
      const ADDRESSES = 300;
      const PER_ADDRESS = 3;
      const address = (i: number) => `10.0.${(i >> 8) & 255}.${i & 255}`;
      let next = 0;
      const send = async () => {
        for (let i = next++; i < ADDRESSES * PER_ADDRESS; i = next++) {
          const res = await app.request('POST', `/hooks/${org.slug}/site`, {
            body: { user: 'x' },
            headers: { 'x-vote-secret': 'wrong', 'x-forwarded-for': address(i % ADDRESSES) },
          });
          expect(res.status).toBe(401);
        }
      };
      await Promise.all(Array.from({ length: 16 }, send));
      await app.stop();
      const entries = logged.map((line) => JSON.parse(line) as LogEntry).filter((e) => e.organization === org.slug || e.label === `${org.slug}/site`);
      const lines = entries.filter((e) => e.msg.startsWith('hook delivery refused'));
      const counted = entries.filter((e) => e.alsoRefused).reduce((sum, e) => sum + e.alsoRefused.suppressed, 0);
      // Every refusal is a line of its own or counted in one.
      expect(lines.length + counted).toBe(ADDRESSES * PER_ADDRESS);
      for (let i = 0; i < ADDRESSES; i++) {
        const times = lines.filter((e) => e.clientIp === address(i)).map((e) => Date.parse(e.time));
        expect(times.length).toBeGreaterThanOrEqual(1);
        for (let k = 1; k < times.length; k++) expect(times[k] - times[k - 1]).toBeGreaterThanOrEqual(10_000);
      }
    }, 120_000);

    it('tracks a bounded number of addresses: past the bound, the rest share one line and one count', () => {
      // The watcher itself, on its own observers and clock: 5,000 addresses at once against a bound of 100.
      let nowMs = 0;
      const out: string[] = [];
      const observers = createHookObservers((err) => {
        throw err;
      });
      const lines = logHookOutcomes(observers, createLogger('info', { format: 'json', destination: { write: (line: string) => void out.push(line) } }), {
        maxTrackedPairs: 100,
        now: () => nowMs,
      });
      const refusal = (i: number): HookObservation => ({
        receivedAt: new Date(0),
        durationMs: 1,
        orgSlug: 'acme',
        providerKey: 'site',
        organizationId: 'org-1',
        provider: { id: 'p-1', key: 'site', authMethod: 'header', authField: 'x-vote-secret', authTimestampField: null, payloadSource: 'json' },
        clientIp: `10.1.${i >> 8}.${i & 255}`,
        method: 'POST',
        path: '/hooks/acme/site',
        protocol: 'http',
        outcome: 'refused',
        status: 401,
        errorCode: 'AUTH_FAILED',
        reason: 'Hook authentication failed: wrong secret',
        voterName: null,
        voteId: null,
        headers: { 'x-vote-secret': 'not-logged-secret' },
        query: {},
        body: Buffer.from('{"user":"not-logged-body"}'),
        testVote: false,
      });
      for (let i = 0; i < 5_000; i++) {
        nowMs += 1; // 5 s in all: within one interval
        observers.tell(refusal(i));
      }
      lines.close();
      const entries = out.map((line) => JSON.parse(line) as LogEntry);
      const own = entries.filter((e) => e.msg.startsWith('hook delivery refused'));
      expect(own).toHaveLength(101); // 100 tracked addresses, and the first of the rest
      const rest = entries.find((e) => e.clientIp === 'other senders')!;
      expect(rest.alsoRefused).toMatchObject({ suppressed: 4_899, codes: { AUTH_FAILED: 4_899 } });
      expect(rest.msg).toBe(
        '… and 4,899 more refused hook deliveries and Votifier sessions to many providers from other senders in the last 5 s (AUTH_FAILED ×4,899), not logged one by one',
      );
      expect(out.join('')).not.toMatch(/not-logged/);
    });
  });

  describe('an automatic disable and a recovery run', () => {
    // Recovery reads every top.gg provider of its database: this one is the test's own. Time runs, and the test
    // moves it on.
    const clock = { offset: 0, ms: () => Date.now() + clock.offset, now: () => new Date(clock.ms()) };
    let own: { url: string; drop(): Promise<void> } | null = null;
    let app: TestApp;
    let fake: FakeTopgg;
    let dead: Receiver;
    const logged: string[] = [];
    const entries = () => logged.map((line) => JSON.parse(line) as LogEntry);

    beforeAll(async () => {
      own = dialect === 'postgresql' ? await createOwnPostgresDatabase() : null;
      fake = await startFakeTopgg({ pageSize: 5, now: clock.ms });
      dead = await startReceiver({ status: 503 });
      const logger = createLogger('info', { format: 'json', destination: { write: (line: string) => void logged.push(line) } });
      const env = {
        TOPGG_API_URL: fake.url,
        RECOVERY_INTERVAL: '0s',
        CALLBACK_DISABLE_AFTER: '1m',
        RETRY_SCHEDULE: '100ms',
        RETRY_JITTER: '0',
        DELIVERY_POLL_MS: '50',
      };
      app = await startTestApp(env, { clock, databaseUrl: own?.url ?? testDatabaseUrl(), logger });
    });
    afterAll(async () => {
      await app?.stop();
      await fake?.close();
      await dead?.close();
      await own?.drop();
    });

    it('logs the votes a recovery run recorded or why it stopped, and a callback disabled for failing', async () => {
      const org = await app.createOrg({ plan: 'business' });
      const apiToken = secretText('topggapitoken');
      const webhookSecret = `whs_${randomBytes(24).toString('base64url')}`;
      fake.project(apiToken);
      const made = await app.request('POST', '/v1/providers', { key: org.key, body: { template: 'topgg', auth_value: webhookSecret, api_token: apiToken } });
      expect(made.status, made.text).toBe(201);
      const callback = await app.request('POST', '/v1/callbacks', { key: org.key, body: { name: 'Lobby', url: `${dead.url}/vote` } });
      expect(callback.status, callback.text).toBe(201);

      // top.gg lists a vote the hook never delivered; an hour later the run records it.
      fake.project(apiToken).votes.push(listedVote(randomBytes(6).toString('hex'), '111000000000000042', clock.ms() + 60_000));
      clock.offset += 3_600_000;
      expect((await app.recovery.tick()).recorded).toBe(1);
      const recovered = entries().find((e) => e.msg.startsWith(`vote recovery for ${org.slug}/topgg`));
      expect(recovered).toMatchObject({ level: INFO, organization: org.slug, provider: 'topgg', found: 1, recorded: 1 });
      expect(recovered!.msg).toContain("1 vote the hook never received recorded from top.gg's vote list");

      // Its delivery fails (the receiver answers 503) and is given up: the callback has been failing since then.
      await until(async () => entries().some((e) => e.callback === 'Lobby' && /failed for good/.test(e.msg)), Boolean);

      // top.gg answers 500 on the next run: the run says it stopped and why.
      fake.project(apiToken).fail({ status: 500 });
      clock.offset += 60_000;
      expect((await app.recovery.tick()).failed).toBe(1);
      const stopped = entries().find((e) => e.msg.startsWith(`vote recovery for ${org.slug}/topgg stopped`));
      expect(stopped).toMatchObject({ level: WARN, recorded: 0, error: expect.stringContaining('top.gg answered 500') });

      // Two minutes of failures (CALLBACK_DISABLE_AFTER=1m): the next failed attempt disables the callback.
      clock.offset += 120_000;
      const body = JSON.stringify({ ...topgg.payloadExample, data: { ...(topgg.payloadExample as any).data, id: String(clock.ms()) } });
      const signed = signatureHeaders('topgg', webhookSecret, body, { header: topgg.authField, nowSeconds: Math.floor(clock.ms() / 1000) });
      const hooked = await app.request('POST', `/hooks/${org.slug}/topgg`, { rawBody: body, headers: { 'content-type': 'application/json', ...signed } });
      expect(hooked.status, hooked.text).toBe(200);
      const disabled = await until(async () => entries().find((e) => e.msg.startsWith('callback "Lobby"') && /disabled/.test(e.msg)), Boolean);
      expect(disabled).toMatchObject({ level: ERROR, organization: org.slug, callback: 'Lobby', callbackId: callback.body.data.id, held: expect.any(Number) });
      expect(disabled!.msg).toContain(`PATCH /v1/callbacks/${callback.body.data.id} {"enabled": true}`);

      const text = logged.join('');
      for (const value of [apiToken, webhookSecret, org.key, org.readKey, callback.body.data.signing_secret]) expect(text).not.toContain(value);
    }, 60_000);
  });

  describe('the started service', () => {
    const children: ChildProcess[] = [];
    let ownDatabase: { url: string; drop(): Promise<void> } | null = null;
    afterAll(async () => {
      for (const child of children) child.kill('SIGKILL');
      await ownDatabase?.drop();
    });

    /** A fresh database of this test's own, with a password in a PostgreSQL URL that must never be printed. */
    async function freshDatabase(): Promise<{ url: string; password: string | null; expected: string }> {
      if (dialect === 'sqlite') {
        const file = join(realpathSync(mkdtempSync(join(tmpdir(), 'vote-relay-logs-'))), 'relay.db');
        return { url: `file:${file}`, password: null, expected: file };
      }
      ownDatabase = await createOwnPostgresDatabase();
      const url = new URL(ownDatabase.url);
      const password = secretText('dbpassword');
      url.username = url.username || 'postgres';
      url.password = password; // trust authentication never asks for it
      return { url: url.toString(), password, expected: `${url.hostname}:${url.port || '5432'}${url.pathname}` };
    }

    it('prints the banner, the first command on an empty database, refusals and no stored vote at info', async () => {
      const db = await freshDatabase();
      const env = { DATABASE_URL: db.url, SECRET_KEY: TEST_SECRET_KEY, LOG_LEVEL: 'info', ALLOW_PRIVATE_TARGETS: 'true' };
      const server = await startServerProcess(env, children);
      await until(
        async () => server.logs.length,
        () => server.logs.some((l) => l.includes('no organization yet')),
        10_000,
      );
      const lines = () => server.logs.map((l) => JSON.parse(l) as LogEntry);
      const banner = lines().find((e) => e.msg === 'vote relay listening')!;
      const port = new URL(server.url).port;
      expect(banner).toMatchObject({
        level: INFO,
        dashboard: `http://localhost:${port}/`,
        api: `http://localhost:${port}/v1`,
        graphql: `http://localhost:${port}/graphql`,
        hooks: `http://localhost:${port}/hooks/<organization>/<provider>`,
        votifier: 'off',
        database: dialect,
        databaseLocation: db.expected,
      });
      const empty = lines().find((e) => e.msg.startsWith('no organization yet'))!;
      expect(empty.level).toBe(INFO);
      expect(empty.msg).toContain('`npm run -s cli -- org create --slug <slug> --name <name> --plan growth --json`');
      // The hint names the database, so a CLI run on another one is noticed.
      expect(empty.msg).toContain(`no organization yet in this database (${dialect} ${db.expected})`);
      // The default public URL is one no voting site can reach: said once, at warn, naming the setting.
      const unreachable = lines().filter((e) => e.level === WARN && e.msg.includes('PUBLIC_BASE_URL'));
      expect(unreachable.map((e) => e.msg)).toEqual([
        `PUBLIC_BASE_URL is http://localhost:${port} (the default), an address only this machine can reach: the hook URLs given to voting sites will not receive votes; set PUBLIC_BASE_URL to the address the sites reach this service at (https://votes.example.com)`,
      ]);

      // The README's first steps, then one vote and one refused delivery.
      const created = await runCli(['org', 'create', '--slug', `logs-${randomBytes(3).toString('hex')}`, '--name', 'Logs', '--plan', 'growth', '--json'], env);
      expect(created.code, created.stderr).toBe(0);
      const key = created.json.api_key.key as string;
      const slug = created.json.organization.slug as string;
      const call = (path: string, body: unknown, headers: Record<string, string> = {}) =>
        fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      const provider = await (
        await call(
          '/v1/providers',
          { key: 'site', name: 'Site', auth_method: 'url_path', auth_field: 's', votee_path: 'user' },
          { authorization: `Bearer ${key}` },
        )
      ).json();
      const secret = provider.data.auth_value as string;
      expect((await call(`/hooks/${slug}/site/${secret}`, { user: 'Alice' })).status).toBe(200);
      expect((await call(`/hooks/${slug}/site/not-${secret}`, { user: 'Eve' })).status).toBe(401);
      await until(
        async () => server.logs.length,
        () => server.logs.some((l) => l.includes('hook delivery refused')),
        10_000,
      );
      const refused = lines().find((e) => e.msg.startsWith('hook delivery refused'))!;
      expect(refused).toMatchObject({
        level: WARN,
        organization: slug,
        provider: 'site',
        code: 'AUTH_FAILED',
        clientIp: expect.stringMatching(/127\.0\.0\.1/),
      });
      expect(lines().some((e) => e.msg.startsWith('vote stored'))).toBe(false);

      const text = server.logs.join('\n');
      for (const value of [key, secret, db.password].filter((v): v is string => !!v)) expect(text).not.toContain(value);
      if (db.password) expect(text).not.toContain('postgres:');
    }, 60_000);

    it('prints human-readable lines with LOG_FORMAT=pretty', async () => {
      const databaseUrl = dialect === 'sqlite' ? `file:${join(mkdtempSync(join(tmpdir(), 'vote-relay-logs-')), 'relay.db')}` : testDatabaseUrl();
      const child = spawn(process.execPath, nodeArgs(serviceEntry()), {
        cwd: ROOT,
        env: {
          ...process.env,
          PORT: '0',
          HOST: '127.0.0.1',
          LOG_LEVEL: 'info',
          LOG_FORMAT: 'pretty',
          DATABASE_URL: databaseUrl,
          SECRET_KEY: TEST_SECRET_KEY,
          ALERTS_INTERVAL_MS: '0',
          VOTIFIER_PORT: '0',
          RECOVERY_INTERVAL: '0',
          RETENTION_INTERVAL: '0',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      let out = '';
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      await until(
        async () => out,
        (text) => /vote relay listening[\s\S]*database: /.test(text),
        30_000,
      );
      child.kill('SIGTERM');
      const lines = out.split('\n').filter((l) => l.trim() !== '');
      // Not one JSON line: a time, a level word and a message, then the fields indented beneath.
      const asJson = (line: string) => {
        try {
          return JSON.parse(line) as unknown;
        } catch {
          return null;
        }
      };
      for (const line of lines) expect(typeof asJson(line) === 'object' && asJson(line) !== null, line).toBe(false);
      expect(out).toMatch(/^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\] INFO: vote relay listening$/m);
      expect(out).toMatch(/^ {4}dashboard: "http:\/\/localhost:\d+\/"$/m);
      expect(out).toMatch(/^ {4}votifier: "off"$/m);
    }, 60_000);

    it('chooses pretty on a terminal and JSON otherwise, unless LOG_FORMAT says', () => {
      expect(resolveLogFormat(null, { isTTY: true })).toBe('pretty');
      expect(resolveLogFormat(null, { isTTY: false })).toBe('json');
      expect(resolveLogFormat(null, {})).toBe('json');
      expect(resolveLogFormat('json', { isTTY: true })).toBe('json');
      expect(resolveLogFormat('pretty', { isTTY: false })).toBe('pretty');
    });
  });
});
