// The dashboard in Chromium, for the tests that drive it: the browser (the dashboard built first when web/dist is
// missing), signing in with a key, and the two checks every page gets: axe-core's WCAG 2.1 A and AA rules in light
// and dark mode, and the layout at 1280 and 390 px (nothing scrolls sideways but a table's own box, and each primary
// action is inside the viewport and its table's box). DASHBOARD_SHOTS_DIR=<dir> saves each layout's screenshots.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect } from 'vitest';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const haveChromium = existsSync(CHROMIUM);
/** Outside CI a missing Chromium skips the dashboard's tests (and says so); CI must have it. */
export const skipDashboard = !haveChromium && process.env.CI !== 'true';
const DIST = join(process.cwd(), 'web', 'dist', 'index.html');
const SHOTS = process.env.DASHBOARD_SHOTS_DIR ?? null;
/** axe-core's own script, evaluated in the page by the driver (the Content-Security-Policy refuses inline scripts). */
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
export const READ_ONLY_REASON = 'This API key has the read scope: sign in with a full key to change anything.';

/** Chromium, with the dashboard built when it was not. */
export async function launchDashboardBrowser(): Promise<Browser> {
  if (!haveChromium) throw new Error(`CI needs Chromium at ${CHROMIUM}`);
  if (!existsSync(DIST)) {
    const vite = await import('vite');
    await vite.build({ configFile: join(process.cwd(), 'web', 'vite.config.ts'), logLevel: 'warn' });
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** The GraphQL operations `page` sends, by operation name with their variables, appended as they go. */
export function recordOperations(page: Page): { operation: string; variables: Record<string, any> }[] {
  const sent: { operation: string; variables: Record<string, any> }[] = [];
  page.on('request', (request) => {
    if (!request.url().endsWith('/graphql') || request.method() !== 'POST') return;
    const body = request.postDataJSON() as { query?: string; operationName?: string; variables?: Record<string, any> } | null;
    const operation = body?.operationName ?? /(?:query|mutation)\s+(\w+)/.exec(body?.query ?? '')?.[1] ?? '';
    sent.push({ operation, variables: body?.variables ?? {} });
  });
  return sent;
}

/** Signs in on the dashboard at `baseUrl` with `key` and waits for the navigation. */
export async function signIn(page: Page, baseUrl: string, key: string): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await page.getByLabel('API key').fill(key);
  await page.getByLabel('API key').press('Enter');
  await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 10_000 });
}

/** The page passes axe-core's WCAG 2.1 A and AA rules, in light and dark mode. */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.evaluate(AXE);
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } })
        .axe;
      const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
      return result.violations.map(
        (v) =>
          `${v.id}: ${v.nodes
            .map((n) => n.target.join(' '))
            .slice(0, 3)
            .join(', ')}`,
      );
    });
    expect(violations, `${label} in ${scheme} mode`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** The page's actions (its buttons and button-like links) that lie outside the width: none may (issue 38, a phone). */
export function actionsOutside(page: Page, width: number): Promise<string[]> {
  return page.evaluate(
    (w) =>
      [...document.querySelectorAll<HTMLElement>('main button, main a.button, main input[type="submit"]')]
        .filter((el) => {
          const r = el.getBoundingClientRect();
          return r.width > 0 && (r.left < -0.5 || r.right > w + 0.5);
        })
        .map((el) => el.textContent?.trim() || el.getAttribute('aria-label') || el.tagName),
    width,
  );
}

/**
 * The tables (their `.table-wrap` boxes) whose content is wider than the box, by test id or first header: on a phone
 * a table is cards or fits, never columns hidden past the box's edge (issue 38).
 */
export function tablesScrolling(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('main .table-wrap')]
      .filter((wrap) => wrap.getBoundingClientRect().width > 0 && wrap.scrollWidth > wrap.clientWidth + 1)
      .map((wrap) => {
        const table = wrap.querySelector('table');
        return `${table?.dataset.testid ?? table?.querySelector('th')?.textContent ?? 'a table'} (${wrap.scrollWidth} px in ${wrap.clientWidth} px)`;
      }),
  );
}

/** At 1280 and 390 px: nothing scrolls sideways but a table's own box, and the actions are inside the viewport. */
export async function expectLayout(page: Page, label: string, actions: () => Locator[]): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.waitForFunction((w) => document.documentElement.scrollWidth <= w, width, { timeout: 2_000 }).catch(() => undefined);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${label} at ${width} px`).toBeLessThanOrEqual(width);
    expect(await actionsOutside(page, width), `${label}: actions outside the width at ${width} px`).toEqual([]);
    expect(await tablesScrolling(page), `${label}: tables wider than their box at ${width} px`).toEqual([]);
    for (const action of actions()) {
      await action.scrollIntoViewIfNeeded();
      const box = (await action.boundingBox())!;
      const name = (await action.getAttribute('aria-label')) ?? (await action.textContent());
      expect(box.x, `${label}: ${name} at ${width} px`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `${label}: ${name} at ${width} px`).toBeLessThanOrEqual(width);
      // Not cut off by the table's own box either.
      expect(
        await action.evaluate((el) => {
          const wrap = el.closest('.table-wrap');
          if (!wrap) return true;
          const a = el.getBoundingClientRect();
          const w = wrap.getBoundingClientRect();
          return a.left >= w.left && a.right <= w.right;
        }),
        `${label}: ${name} inside its table's box at ${width} px`,
      ).toBe(true);
    }
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: join(SHOTS, `${label}-${width}.png`), fullPage: true });
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}
