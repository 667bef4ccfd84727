import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { inject } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page, type Response } from 'playwright-core';
import { chromiumPath } from './env';
import { watchBrowser } from './page-errors';

export { allowConsole } from './page-errors';

const screenshots = resolve(import.meta.dirname, '../screenshots');

/**
 * `extraArgs`: a file's own flags (e.g. the video room's fake camera and microphone). Every page of the
 * browser fails its test on a page error or a console error or warning (support/page-errors.ts).
 */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
  return watchBrowser(browser);
}

export async function newContext(browser: Browser, baseURL: string, options: { mobile?: boolean } = {}): Promise<BrowserContext> {
  return browser.newContext({
    baseURL,
    locale: 'es-ES',
    timezoneId: 'Europe/Madrid',
    viewport: options.mobile ? { width: 375, height: 812 } : { width: 1280, height: 820 },
    deviceScaleFactor: 1,
    colorScheme: 'light',
  });
}

/**
 * Every page of `context` starts with `entries` in localStorage (where the web app keeps the session).
 * Not on about:blank, where a context's first page starts: it has no storage, and reading it there threw
 * a page error.
 */
export async function seedLocalStorage(context: BrowserContext, entries: { name: string; value: string }[]): Promise<void> {
  await context.addInitScript((s: string) => {
    if (location.origin === 'null') return;
    for (const { name, value } of JSON.parse(s) as { name: string; value: string }[]) localStorage.setItem(name, value);
  }, JSON.stringify(entries));
}

/** `to` signed in as `from` is: the same user on another device (a phone beside the desktop). */
export async function shareSession(to: BrowserContext, from: BrowserContext): Promise<void> {
  const state = await from.storageState();
  await seedLocalStorage(to, state.origins[0]?.localStorage ?? []);
}

/** A 390 px wide phone signed in as the same user as `desktop`. */
export async function phoneOf(browser: Browser, desktop: BrowserContext): Promise<BrowserContext> {
  const phone = await browser.newContext({
    baseURL: inject('baseUrl'),
    locale: 'es-ES',
    timezoneId: 'Europe/Madrid',
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 1,
  });
  await shareSession(phone, desktop);
  return phone;
}

/**
 * With E2E_SCREENSHOTS=1, a full-page picture in e2e/screenshots/, numbered in the order they are taken,
 * for a human to page through (`E2E_SCREENSHOTS=1 npm run test:e2e`). Otherwise nothing: the pictures are
 * for people, nothing asserts on them, and the ~190 of a run cost about a sixth of its time.
 */
export async function shot(page: Page, name: string): Promise<void> {
  if (!process.env.E2E_SCREENSHOTS) return;
  mkdirSync(screenshots, { recursive: true });
  // A quiet network for the picture, but never the 30 s default: a page that polls (a payment waiting for
  // its webhook, an embedded page posting its height) is never idle, and each shot would wait it out.
  await page.waitForLoadState('networkidle', { timeout: 3000 }).catch(() => undefined);
  // Full-page shots of a scrolled page repeat the sticky header mid-image.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(screenshots, `${name}.png`), fullPage: true });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };

/**
 * Until the page's finite animations have ended (a dialog opening, a toast sliding in; a spinner's never
 * does; at most 2 s): what a person sees settle before pressing the next key.
 */
export async function animationsEnded(page: Page): Promise<void> {
  await page.evaluate(() => {
    const finite = document.getAnimations().filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)));
    return Promise.race([Promise.allSettled(finite.map((a) => a.finished)), new Promise((r) => setTimeout(r, 2000))]);
  });
}

/** Runs axe-core in the page and returns the serious and critical violations. */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  // Colours mid-transition (a toast fading in) are not what a person reads.
  await animationsEnded(page);
  // Evaluated over the DevTools protocol: an inline <script> tag would be (rightly) blocked by the CSP.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.map((n) => ({ target: n.target })) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Gzipped size of every script the page downloads until the network is idle. */
export async function scriptKilobytes(page: Page, path: string): Promise<number> {
  return [...(await scriptSizes(page, path)).values()].reduce((a, b) => a + b, 0) / 1024;
}

/** The scripts a load of `path` fetches, by URL, each gzipped (bytes): to tell what a page adds to another. */
export async function scriptSizes(page: Page, path: string): Promise<Map<string, number>> {
  const sizes: Promise<[string, number]>[] = [];
  const onResponse = (res: Response) => {
    if (res.request().resourceType() === 'script')
      sizes.push(
        res.body().then(
          (b) => [res.url(), gzipSync(b).length],
          () => [res.url(), 0],
        ),
      );
  };
  page.on('response', onResponse);
  await page.goto(path, { waitUntil: 'networkidle' });
  page.off('response', onResponse);
  return new Map(await Promise.all(sizes));
}
