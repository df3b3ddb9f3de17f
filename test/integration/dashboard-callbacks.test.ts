// The callbacks page in Chromium: its form is drawn from the callback kinds' settings (the callbackKinds query), so
// every kind the server has is offered by its label with a field per setting; an HTTP callback (a URL) and a Votifier
// one (a host and a token) are created through it and the API holds what was typed; an edit sends only what changed
// (a secret left empty stays set, a changed field is saved, a removed secret and a cleared field are sent as null);
// a JSON field that does not parse says so in words and nothing is sent. At a phone's 390 px the list and the form
// fit, their actions are in view, a row is as tall as its content, and a URL breaks only after a '/'. SQLite only
// (the browser is what is tested). DASHBOARD_SHOTS_DIR=<dir> saves screenshots of the page and the form (each kind)
// at 1280 and 390 px.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { databaseUnavailable, dialect, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';
import { startReceiver, type Receiver } from '../kit/receiver.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
const DIST = join(process.cwd(), 'web', 'dist', 'index.html');
const SHOTS = process.env.DASHBOARD_SHOTS_DIR ?? null;

type Setting = { name: string; label: string; widget: string; type: string; secret: boolean; required: boolean; default: unknown };
type Kind = { name: string; label: string; events: string[]; signed: boolean; settings: Setting[] };

/** A setting asked for under the events (per event beyond a vote), not among the kind's own fields. */
const perEvent = (s: Setting) => s.type === 'json' && /^event[A-Z]/.test(s.name);

describe.skipIf(databaseUnavailable || dialect !== 'sqlite' || (!haveChromium && process.env.CI !== 'true'))(
  'dashboard callbacks in Chromium (SQLite: the database does not matter here)',
  () => {
    let app: TestApp;
    let org: TestOrg;
    let browser: Browser;
    let page: Page;
    let game: Receiver;
    let kinds: Kind[];
    /** The GraphQL operations the page sent, by operation name: what a save really sends. */
    const sent: { operation: string; variables: Record<string, any> }[] = [];

    beforeAll(async () => {
      if (!haveChromium) throw new Error(`CI needs Chromium at ${CHROMIUM}`);
      if (!existsSync(DIST)) {
        const vite = await import('vite');
        await vite.build({ configFile: join(process.cwd(), 'web', 'vite.config.ts'), logLevel: 'warn' });
      }
      app = await startTestApp({ DELIVERY_POLL_MS: '100' });
      org = await app.createOrg({ plan: 'pro', name: 'Callback Kinds Network' });
      game = await startReceiver({ status: 200, body: { ok: true } });
      const answer = await app.request('POST', '/graphql', {
        key: org.key,
        body: { query: '{ callbackKinds { name label events signed settings { name label widget type secret required default } } }' },
      });
      kinds = answer.body.data.callbackKinds;
      expect(kinds.map((k) => k.name)).toEqual(expect.arrayContaining(['http', 'votifier']));
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      });
      page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
      page.setDefaultTimeout(8_000);
      page.on('request', (request) => {
        if (!request.url().endsWith('/graphql') || request.method() !== 'POST') return;
        const body = request.postDataJSON() as { query?: string; operationName?: string; variables?: Record<string, any> } | null;
        const operation = body?.operationName ?? /(?:query|mutation)\s+(\w+)/.exec(body?.query ?? '')?.[1] ?? '';
        sent.push({ operation, variables: body?.variables ?? {} });
      });
      await page.goto(`${app.url}/`);
      await page.getByLabel('API key').fill(org.key);
      await page.getByLabel('API key').press('Enter');
      await page.getByText('full access').waitFor({ timeout: 10_000 });
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Callbacks', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Callbacks' }).waitFor();
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await app?.stop();
      await game?.close();
    });

    const form = () => page.getByRole('region', { name: 'Add a callback' });
    const kind = (name: string) => kinds.find((k) => k.name === name)!;
    const callbackNamed = async (name: string) =>
      (await app.request('GET', '/v1/callbacks?include_disabled=true', { key: org.key })).body.data.callbacks.find((c: { name: string }) => c.name === name);
    const lastSent = (operation: string) => sent.filter((s) => s.operation === operation).at(-1)!;
    /** A callback's row, by its name cell (on a phone a cell's caption is part of the row's accessible name). */
    const row = (name: string) =>
      page
        .getByTestId('callbacks-table')
        .locator('tbody tr')
        .filter({ has: page.locator('td.name', { hasText: new RegExp(`^${name.replace(/[()]/g, '\\$&')}$`) }) });

    /** A screenshot of the whole page (or one part of it) at a width, when DASHBOARD_SHOTS_DIR is set. */
    async function shot(name: string, width: number, part?: string) {
      if (!SHOTS) return;
      mkdirSync(SHOTS, { recursive: true });
      await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
      await page.waitForFunction((w) => document.documentElement.scrollWidth <= w, width, { timeout: 2_000 }).catch(() => undefined);
      const path = join(SHOTS, `${name}-${width}.png`);
      await (part ? page.getByRole('region', { name: part }).screenshot({ path }) : page.screenshot({ path, fullPage: true }));
      await page.setViewportSize({ width: 1280, height: 900 });
    }

    it('the kind picker lists every kind by its label, and each kind shows a field per setting (per-event ones once such an event is ticked)', async () => {
      const picker = form().getByLabel('Kind');
      expect(await picker.locator('option').allTextContents()).toEqual(kinds.map((k) => k.label));
      for (const k of kinds) {
        await picker.selectOption(k.name);
        for (const s of k.settings.filter((s) => !perEvent(s))) {
          const field = form().locator(`#callback-${s.name}`);
          await field.waitFor();
          expect(await form().locator('label', { hasText: s.label }).count(), `${k.name}.${s.name}`).toBeGreaterThan(0);
          if (s.widget === 'password') expect(await field.getAttribute('type')).toBe('password');
          if (s.widget === 'checkbox') expect(await field.isChecked()).toBe(s.default === true);
          else if (s.default !== null && s.default !== undefined && !Array.isArray(s.default) && typeof s.default !== 'object')
            expect(await field.inputValue(), `${k.name}.${s.name} starts from its default`).toBe(String(s.default));
          if (s.required) expect(await field.getAttribute('aria-required')).toBe('true');
        }
        // Only the kind's own events are offered.
        const boxes = form().getByRole('group', { name: 'Events it takes' }).getByRole('checkbox');
        expect(await boxes.count(), `${k.name} events`).toBe(k.events.length);
        const perEventSettings = k.settings.filter(perEvent);
        if (perEventSettings.length > 0 && k.events.includes('milestone')) {
          for (const s of perEventSettings) expect(await form().locator(`#callback-${s.name}`).count()).toBe(0);
          await form()
            .getByRole('checkbox', { name: /^milestone\W/ })
            .check();
          for (const s of perEventSettings) await form().locator(`#callback-${s.name}`).waitFor();
          await form()
            .getByRole('checkbox', { name: /^milestone\W/ })
            .uncheck();
        }
        await shot(`callback-form-${k.name}`, 1280, 'Add a callback');
        await shot(`callback-form-${k.name}`, 390, 'Add a callback');
      }
      await picker.selectOption(kinds[0].name);
    });

    it('creates an HTTP callback with its URL: a JSON field that does not parse says so in words and sends nothing, then the API holds what was typed', async () => {
      await form().getByLabel('Kind').selectOption('http');
      await form().getByLabel('Name', { exact: true }).fill('Web');
      await form().getByLabel('URL').fill(`${game.url}/vote`);
      const template = form().locator('#callback-payloadTemplate');
      await template.fill('{ "event": "vote", ');
      const creates = sent.filter((s) => s.operation === 'CreateCallback').length;
      await form().getByRole('button', { name: 'Create callback' }).click();
      await form()
        .getByText(/^payload_template: is not valid JSON \(.+\)/)
        .waitFor();
      expect(sent.filter((s) => s.operation === 'CreateCallback').length).toBe(creates);
      await template.fill('{ "event": "vote", "player": "{{voter_name}}" }');
      await form().getByRole('button', { name: 'Create callback' }).click();
      await page.getByLabel('Signing secret').waitFor({ timeout: 5_000 });
      await page.getByRole('button', { name: 'Done' }).click();
      // Only what was typed: the URL and the changed template, not the defaults nor the empty secret.
      const input = lastSent('CreateCallback').variables.input;
      expect(Object.keys(input).sort()).toEqual(['events', 'kind', 'name', 'payloadTemplate', 'url']);
      expect(await callbackNamed('Web')).toMatchObject({
        kind: 'http',
        url: `${game.url}/vote`,
        payload_template: { event: 'vote', player: '{{voter_name}}' },
        has_auth_secret: false,
        events: ['vote'],
      });
      await row('Web').locator('td.events').getByText('vote', { exact: true }).waitFor();
    });

    it('creates a Votifier callback with its host and token; port and service name keep their defaults; the list shows its target', async () => {
      await form().getByLabel('Kind').selectOption('votifier');
      await form().getByLabel('Name', { exact: true }).fill('Lobby');
      await form().getByLabel('Host').fill('127.0.0.1');
      await form()
        .getByLabel(/^Token/)
        .fill('votifier-token-0123456789');
      await form().getByRole('button', { name: 'Create callback' }).click();
      const label = kind('votifier').label.split(':')[0];
      await page.getByText(`Lobby is ready. A ${label} callback is not signed`).waitFor({ timeout: 5_000 });
      expect(await page.getByLabel('Signing secret').count()).toBe(0);
      await page.getByRole('button', { name: 'Done' }).click();
      expect(Object.keys(lastSent('CreateCallback').variables.input).sort()).toEqual(['events', 'host', 'kind', 'name', 'token']);
      const lobby = await callbackNamed('Lobby');
      expect(lobby).toMatchObject({ kind: 'votifier', host: '127.0.0.1', port: 8192, service_name: 'VoteRelay', has_token: true, public_key: null });
      const target = (await app.request('POST', '/graphql', { key: org.key, body: { query: `{ callback(id: "${lobby.id}") { target } }` } })).body.data.callback
        .target;
      await row('Lobby').locator('td.target').getByText(target.split('//').at(-1)).waitFor();
      // Only a kind that signs has a secret to rotate.
      expect(await row('Lobby').getByRole('button', { name: 'Rotate secret' }).count()).toBe(0);
      expect(await row('Web').getByRole('button', { name: 'Rotate secret' }).count()).toBe(1);
    });

    it('edits the Votifier callback: its token says "set" and, left empty, stays; only the changed service name is sent', async () => {
      await row('Lobby').getByRole('button', { name: 'Edit' }).click();
      const edit = page.getByRole('region', { name: 'Edit Lobby' });
      await edit.getByLabel('Host').waitFor();
      expect(await edit.getByLabel('Host').inputValue()).toBe('127.0.0.1');
      expect(await edit.getByLabel('Port').inputValue()).toBe('8192');
      const token = edit.getByLabel(/^Token/);
      expect(await token.inputValue()).toBe('');
      expect(await edit.locator('label[for="edit-token"]').textContent()).toMatch(/\bset$/);
      // No kind picker on an edit: a callback keeps its kind.
      expect(await edit.getByLabel('Kind').count()).toBe(0);
      await edit.getByLabel('Service name').fill('Lobby');
      await edit.getByRole('button', { name: 'Save' }).click();
      await edit.waitFor({ state: 'detached', timeout: 5_000 });
      const input = lastSent('UpdateCallback').variables.input;
      expect(Object.keys(input).sort()).toEqual(['events', 'maxPerSecond', 'name', 'providers', 'serviceName', 'timeoutMs']);
      expect(await callbackNamed('Lobby')).toMatchObject({ host: '127.0.0.1', port: 8192, service_name: 'Lobby', has_token: true, public_key: null });
    });

    it('edits the HTTP callback: a new auth secret is set, then kept while another field changes, then removed', async () => {
      const openEdit = async () => {
        await row('Web').getByRole('button', { name: 'Edit' }).click();
        const edit = page.getByRole('region', { name: 'Edit Web' });
        await edit.getByLabel('URL').waitFor();
        return edit;
      };
      let edit = await openEdit();
      expect(await edit.getByLabel('URL').inputValue()).toBe(`${game.url}/vote`);
      expect(await edit.locator('label[for="edit-authSecret"]').textContent()).toMatch(/not set$/);
      await edit.locator('#edit-authSecret').fill('bearer-secret-1');
      await edit.getByRole('button', { name: 'Save' }).click();
      await edit.waitFor({ state: 'detached', timeout: 5_000 });
      expect(await callbackNamed('Web')).toMatchObject({ has_auth_secret: true });

      edit = await openEdit();
      expect(await edit.locator('label[for="edit-authSecret"]').textContent()).toMatch(/\bset$/);
      expect(await edit.locator('#edit-authSecret').inputValue()).toBe('');
      await edit.getByLabel('URL').fill(`${game.url}/votes`);
      await edit.getByRole('button', { name: 'Save' }).click();
      await edit.waitFor({ state: 'detached', timeout: 5_000 });
      const input = lastSent('UpdateCallback').variables.input;
      expect(input).not.toHaveProperty('authSecret');
      expect(input).not.toHaveProperty('payloadTemplate');
      expect(await callbackNamed('Web')).toMatchObject({ url: `${game.url}/votes`, has_auth_secret: true, payload_template: { player: '{{voter_name}}' } });
      // The delivery carries the secret that was kept.
      const before = game.requests.length;
      const tested = await app.request('POST', `/v1/callbacks/${(await callbackNamed('Web')).id}/test`, { key: org.key });
      expect(tested.status, tested.text).toBe(200);
      expect(tested.body.data.headers.authorization).toBe('Bearer [auth_secret]');
      expect(game.requests.length).toBe(before);

      edit = await openEdit();
      await edit.getByRole('checkbox', { name: /^Remove Auth secret/ }).check();
      await edit.getByRole('button', { name: 'Save' }).click();
      await edit.waitFor({ state: 'detached', timeout: 5_000 });
      expect(lastSent('UpdateCallback').variables.input.authSecret).toBeNull();
      expect(await callbackNamed('Web')).toMatchObject({ has_auth_secret: false });

      // Its own payload for milestones (asked for once milestone is ticked), then cleared: a cleared field that may be
      // empty is sent as null (each event's default payload again).
      edit = await openEdit();
      await edit.getByRole('checkbox', { name: /^milestone\W/ }).check();
      await edit.getByLabel(/^Event payloads/).fill('{"milestone": {"reached": "{{milestone_value}}"}}');
      await edit.getByRole('button', { name: 'Save' }).click();
      await edit.waitFor({ state: 'detached', timeout: 5_000 });
      expect(await callbackNamed('Web')).toMatchObject({ events: ['vote', 'milestone'], event_templates: { milestone: { reached: '{{milestone_value}}' } } });
      edit = await openEdit();
      expect(JSON.parse(await edit.getByLabel(/^Event payloads/).inputValue())).toEqual({ milestone: { reached: '{{milestone_value}}' } });
      await edit.getByLabel(/^Event payloads/).fill('');
      await edit.getByRole('button', { name: 'Save' }).click();
      await edit.waitFor({ state: 'detached', timeout: 5_000 });
      expect(lastSent('UpdateCallback').variables.input.eventTemplates).toBeNull();
      const web = await callbackNamed('Web');
      expect(web.events).toEqual(['vote', 'milestone']);
      expect(web.event_templates ?? null).toBeNull();
    });

    it('at 390 px the list and the form fit, with their actions in view; a row is as tall as its content; a URL breaks only after a /', async () => {
      // A target with long parts, as an owner's game server might have.
      const long = `${game.url}/plugins/vote-relay-receiver/api/v2/deliveries/${'x'.repeat(48)}?token=${'t'.repeat(40)}`;
      const made = await app.request('POST', '/v1/callbacks', { key: org.key, body: { name: 'Far', url: long } });
      expect(made.status, made.text).toBe(201);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview', exact: true }).click();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Callbacks', exact: true }).click();
      await row('Far').waitFor();
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
        await page.waitForFunction((w) => document.documentElement.scrollWidth <= w, width, { timeout: 2_000 }).catch(() => undefined);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `page at ${width} px`).toBeLessThanOrEqual(width);
        // Nor does the list scroll sideways in its own box: every column, the actions too, is in view.
        const list = await page.getByTestId('callbacks-table').evaluate((table) => ({ table: table.scrollWidth, box: table.parentElement!.clientWidth }));
        expect(list.table, `the list at ${width} px`).toBeLessThanOrEqual(list.box);
        // Each part of a URL stays on one line (it breaks only between parts, after a '/').
        const broken = await page.evaluate(() =>
          [...document.querySelectorAll('td.target .segment')].filter((s) => s.getClientRects().length > 1).map((s) => s.textContent),
        );
        expect(broken, `URL parts broken inside at ${width} px`).toEqual([]);
        for (const name of ['Web', 'Lobby', 'Far']) {
          const tr = row(name);
          for (const action of ['Preview', 'Edit']) {
            const button = tr.getByRole('button', { name: action });
            await button.scrollIntoViewIfNeeded();
            const box = (await button.boundingBox())!;
            expect(box.x, `${name} ${action} at ${width} px`).toBeGreaterThanOrEqual(0);
            expect(box.x + box.width, `${name} ${action} at ${width} px`).toBeLessThanOrEqual(width);
          }
          // No tall blank block: the row is no taller than its cells' content (plus padding and the gaps between).
          const { height, content } = await tr.evaluate((tr) => {
            const cells = [...tr.children] as HTMLElement[];
            const contentHeight = (td: HTMLElement) => {
              const range = document.createRange();
              range.selectNodeContents(td);
              const r = range.getBoundingClientRect();
              const before = parseFloat(getComputedStyle(td, '::before').height) || 0;
              return r.height + before;
            };
            const grid = getComputedStyle(tr).display === 'grid';
            if (!grid) return { height: tr.getBoundingClientRect().height, content: Math.max(...cells.map(contentHeight)) };
            // On a phone each cell is a grid item: add up the tallest content of each grid line.
            const lines = new Map<number, number>();
            for (const td of cells) {
              const top = Math.round(td.getBoundingClientRect().top);
              lines.set(top, Math.max(lines.get(top) ?? 0, contentHeight(td)));
            }
            return { height: tr.getBoundingClientRect().height, content: [...lines.values()].reduce((a, b) => a + b, 0) };
          });
          expect(height, `${name} row at ${width} px (content ${content})`).toBeLessThanOrEqual(content + (width < 600 ? 90 : 24));
        }
        // The form's own action, and an edit's Save, are in view too.
        const create = form().getByRole('button', { name: 'Create callback' });
        await create.scrollIntoViewIfNeeded();
        const box = (await create.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(width);
        // On a phone no line of a template or of the preview hides past the right edge of its box: they wrap.
        if (width < 600) {
          await row('Web').getByRole('button', { name: 'Preview' }).click();
          await page.getByTestId('callback-preview').waitFor();
          const hidden = await page.evaluate(() =>
            [...document.querySelectorAll<HTMLElement>('.callback-form textarea, .preview-payload')]
              .filter((el) => el.getBoundingClientRect().width > 0 && el.scrollWidth > el.clientWidth + 1)
              .map((el) => `${el.id || el.className} (${el.scrollWidth} px in ${el.clientWidth} px)`),
          );
          expect(hidden, `template and preview boxes at ${width} px`).toEqual([]);
        }
        await row('Far').getByRole('button', { name: 'Edit' }).click();
        const edit = page.getByRole('region', { name: 'Edit Far' });
        const save = edit.getByRole('button', { name: 'Save' });
        await save.waitFor();
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `edit form at ${width} px`).toBeLessThanOrEqual(width);
        await save.scrollIntoViewIfNeeded();
        const saveBox = (await save.boundingBox())!;
        expect(saveBox.x + saveBox.width).toBeLessThanOrEqual(width);
        await shot('callbacks-editing', width);
        await edit.getByRole('button', { name: 'Cancel' }).click();
        await edit.waitFor({ state: 'detached' });
        await shot('callbacks', width);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
    });
  },
);
