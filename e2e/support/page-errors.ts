import { afterAll, afterEach } from 'vitest';
import type { Browser, BrowserContext, ConsoleMessage } from 'playwright-core';

/**
 * Every page the support opens fails its test on an uncaught error or a console error or warning
 * (React Router's warnings are console warnings). What a test expects on purpose (a 404 it asks for)
 * it allows by name, for itself only: `allowConsole({ text, url, because })`.
 */
type Seen = { kind: 'pageerror' | 'error' | 'warning'; text: string; url: string; page: string };
export type Allowance = {
  /** The console message's kind; a page error cannot be allowed. */
  type?: 'error' | 'warning';
  text: RegExp;
  /** For a resource that failed to load: its URL (the message says only the status). */
  url?: RegExp;
  /** Why this one is expected, in the test's words (for whoever reads the test). */
  because: string;
};

let seen: Seen[] = [];
let allowed: Allowance[] = [];

/** For the current test (or, from a `beforeAll`, until its first test ends): messages expected on purpose. */
export function allowConsole(...rules: Allowance[]): void {
  allowed.push(...rules);
}

const isAllowed = (s: Seen) =>
  s.kind !== 'pageerror' && allowed.some((a) => (a.type ?? 'error') === s.kind && a.text.test(s.text) && (!a.url || a.url.test(s.url)));

function record(kind: Seen['kind'], text: string, url: string, page: string) {
  seen.push({ kind, text, url, page });
}

function onConsole(message: ConsoleMessage) {
  const type = message.type();
  if (type !== 'error' && type !== 'warning') return;
  record(type, message.text(), message.location().url, message.page()?.url() ?? '');
}

/** Listens to every page of `context`, the ones it has and the ones it will open (popups too). */
export function watchContext(context: BrowserContext): BrowserContext {
  context.on('console', onConsole);
  context.on('weberror', (e) => {
    const error = e.error();
    record('pageerror', `${error.name}: ${error.message}${error.stack ? `\n${error.stack}` : ''}`, '', e.page()?.url() ?? '');
  });
  return context;
}

/** Contexts made through `browser.newContext` or `browser.newPage` are watched too. */
export function watchBrowser(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => watchContext(await newContext(options));
  browser.newPage = async (options) => {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    // As Playwright's own newPage: closing the page closes its context.
    page.once('close', () => void context.close().catch(() => undefined));
    return page;
  };
  return browser;
}

function check(when: string) {
  const found = seen.filter((s) => !isAllowed(s));
  seen = [];
  allowed = [];
  if (!found.length) return;
  const lines = found.map((s) => `- ${s.kind} on ${s.page || 'a page'}: ${s.text}${s.url ? ` (${s.url})` : ''}`);
  throw new Error(`${found.length} page error(s) or console message(s) ${when}:\n${lines.join('\n')}`);
}

// Registered on the file that imports the support (vitest collects hooks called while the file loads).
afterEach(() => check('during this test or the setup before it'));
afterAll(() => check('after the last test'));
