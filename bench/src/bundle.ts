import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Session } from './dataset';
import { errorMessage, webDist } from './util';

export type PageBundle = {
  path: string;
  gzipBytes: number;
  rawBytes: number;
  files: { file: string; raw: number; gzip: number }[];
  note?: string;
};
export type BundleResult = { method: 'chromium' | 'static'; note?: string; pages: PageBundle[] };

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const gz = (b: Buffer) => gzipSync(b, { level: 9 }).length;

export class WebNotBuilt extends Error {}

/**
 * Gzipped JS the browser loads for `/sign-in` (signed out) and `/` (signed in). Measured in Chromium
 * against the running server when it is installed, else estimated from the Vite build.
 */
export async function measureBundle(baseUrl: string, session: Session): Promise<BundleResult> {
  if (!existsSync(join(webDist, 'index.html')))
    throw new WebNotBuilt('web app not built (apps/web/dist/index.html missing): run `npm run build -w apps/web`');
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath))
    return { ...staticBundle(), note: `Chromium not found at ${executablePath}: static analysis of the Vite build` };
  try {
    return await chromiumBundle(baseUrl, session, executablePath);
  } catch (err) {
    return { ...staticBundle(), note: `Chromium failed (${errorMessage(err).split('\n')[0]}): static analysis of the Vite build` };
  }
}

async function chromiumBundle(baseUrl: string, session: Session, executablePath: string): Promise<BundleResult> {
  const { chromium } = await import('playwright-core');
  const me = await fetch(`${baseUrl}/api/v1/me`, {
    headers: { authorization: `Bearer ${session.accessToken}` },
    signal: AbortSignal.timeout(10_000),
  });
  if (!me.ok) throw new Error(`GET /api/v1/me answered ${me.status}`);
  const state = {
    userId: session.userId,
    accessToken: session.accessToken,
    refreshToken: session.refreshToken,
    profile: await me.json(),
    loggedIn: true,
  };
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true, timeout: 30_000 });
  try {
    const load = async (path: string, auth: object | null): Promise<PageBundle> => {
      const context = await browser.newContext();
      try {
        // The zustand persist format of apps/web/src/stores/auth-store.ts, in place before the app's scripts run.
        if (auth)
          await context.addInitScript({
            content: `localStorage.setItem('auth', ${JSON.stringify(JSON.stringify({ state: auth, version: 1 }))});`,
          });
        const page = await context.newPage();
        const bodies: Promise<PageBundle['files'][number] | string>[] = [];
        page.on('response', (res) => {
          const file = new URL(res.url()).pathname;
          if (!file.endsWith('.js')) return;
          if (res.status() !== 200) return void bodies.push(Promise.resolve(`${file} answered ${res.status()}`));
          bodies.push(
            res.body().then(
              (b) => ({ file, raw: b.length, gzip: gz(b) }),
              (e: unknown) => `${file}: ${errorMessage(e)}`,
            ),
          );
        });
        try {
          await page.goto(baseUrl + path, { waitUntil: 'networkidle', timeout: 30_000 });
        } catch {
          await page.waitForTimeout(2_000); // networkidle never came (e.g. polling): take what loaded
        }
        await page.waitForTimeout(500);
        const landed = new URL(page.url()).pathname;
        const results = await Promise.all(bodies);
        const files = results.filter((r): r is PageBundle['files'][number] => typeof r !== 'string');
        const problems = results.filter((r): r is string => typeof r === 'string');
        if (landed !== path) problems.unshift(`landed on ${landed}`);
        return summarize(path, files, problems.join('; ') || undefined);
      } finally {
        await context.close();
      }
    };
    return { method: 'chromium', pages: [await load('/sign-in', null), await load('/', state)] };
  } finally {
    await browser.close();
  }
}

function summarize(path: string, files: PageBundle['files'], note?: string): PageBundle {
  const unique = [...new Map(files.map((f) => [f.file, f])).values()];
  return {
    path,
    rawBytes: unique.reduce((s, f) => s + f.raw, 0),
    gzipBytes: unique.reduce((s, f) => s + f.gzip, 0),
    files: unique.sort((a, b) => b.gzip - a.gzip),
    note,
  };
}

type ManifestChunk = { file: string; name?: string; src?: string; isEntry?: boolean; imports?: string[] };

/** Lazy route chunks each page needs besides the entry (see apps/web/src/app/router.tsx). */
const ROUTE_CHUNKS: Record<string, string[]> = {
  '/sign-in': ['app/guest/guest-app'],
  '/': ['app/router', 'app/screens', 'app/layouts/shell-layout'],
};

/** Entry chunk + its static imports, plus each route's lazy chunks and their static imports, from the Vite manifest. */
function staticBundle(): BundleResult {
  const manifestPath = join(webDist, '.vite/manifest.json');
  if (!existsSync(manifestPath)) {
    // No manifest: the scripts index.html names (entry and modulepreloads) are all we can know.
    const html = readFileSync(join(webDist, 'index.html'), 'utf8');
    const srcs = [...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*rel="modulepreload"[^>]*\bhref)="\/?([^"]+\.js)"/g)].map((m) => m[1]!);
    const files = srcs.map((f) => fileSize(f));
    const note = 'no Vite manifest: entry scripts of index.html only (lazy route chunks not counted)';
    return { method: 'static', pages: Object.keys(ROUTE_CHUNKS).map((p) => summarize(p, files, note)) };
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
  const closure = (keys: string[]) => {
    const seen = new Set<string>();
    const stack = [...keys];
    while (stack.length && seen.size < 10_000) {
      const k = stack.pop()!;
      if (seen.has(k) || !manifest[k]) continue;
      seen.add(k);
      stack.push(...(manifest[k].imports ?? []));
    }
    return [...seen].map((k) => manifest[k]!.file).filter((f) => f.endsWith('.js'));
  };
  const entries = Object.keys(manifest).filter((k) => manifest[k]!.isEntry);
  const pages = Object.entries(ROUTE_CHUNKS).map(([path, hints]) => {
    // A route module also imported statically elsewhere becomes a shared chunk: keyed `_<name>-<hash>.js`, no `src`.
    const find = (h: string) =>
      Object.keys(manifest).find((k) => (manifest[k]!.src ?? k).includes(h)) ??
      Object.keys(manifest).find((k) => manifest[k]!.name === h.split('/').pop());
    const found = hints.map(find);
    const missing = hints.filter((_, i) => !found[i]);
    const files = closure([...entries, ...found.filter((k): k is string => !!k)]).map(fileSize);
    return summarize(path, files, missing.length ? `route chunk not found in manifest: ${missing.join(', ')}` : undefined);
  });
  return { method: 'static', pages };
}

function fileSize(file: string) {
  const b = readFileSync(join(webDist, file));
  return { file: `/${file}`, raw: b.length, gzip: gz(b) };
}
