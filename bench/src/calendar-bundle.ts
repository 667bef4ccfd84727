// The JavaScript of the calendar route (/calendar): what the browser loads for it beyond the signed-in
// shell (`/`), gzipped at level 9. Measured in Chromium when it is there, else from the Vite manifest
// (the lazy chunks under features/calendar and what they import that the entry does not).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Session } from './dataset';
import { errorMessage, webDist } from './util';

type File = { file: string; raw: number; gzip: number };
export type CalendarBundle = {
  method: 'chromium' | 'static';
  /** The route's own chunks: loaded for /calendar and not for the shell. */
  route: { gzipBytes: number; rawBytes: number; files: File[] };
  /** Everything /calendar loads, shell included. */
  total: { gzipBytes: number; rawBytes: number };
  note?: string;
};

export class CalendarRouteMissing extends Error {}

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
const sum = (files: File[]) => ({ gzipBytes: files.reduce((s, f) => s + f.gzip, 0), rawBytes: files.reduce((s, f) => s + f.raw, 0) });

export async function measureCalendarBundle(baseUrl: string, session: Session): Promise<CalendarBundle> {
  if (!existsSync(join(webDist, 'index.html')))
    throw new CalendarRouteMissing('web app not built (apps/web/dist/index.html missing): run `npm run build -w apps/web`');
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath))
    return { ...staticCalendar(), note: `Chromium not found at ${executablePath}: static analysis of the Vite build` };
  try {
    return await chromiumCalendar(baseUrl, session, executablePath);
  } catch (err) {
    if (err instanceof CalendarRouteMissing) throw err;
    return { ...staticCalendar(), note: `Chromium failed (${errorMessage(err).split('\n')[0]}): static analysis of the Vite build` };
  }
}

async function chromiumCalendar(baseUrl: string, session: Session, executablePath: string): Promise<CalendarBundle> {
  const { chromium } = await import('playwright-core');
  const me = await fetch(`${baseUrl}/api/v1/me`, {
    headers: { authorization: `Bearer ${session.accessToken}` },
    signal: AbortSignal.timeout(10_000),
  });
  if (!me.ok) throw new Error(`GET /api/v1/me answered ${me.status}`);
  const auth = {
    userId: session.userId,
    accessToken: session.accessToken,
    refreshToken: session.refreshToken,
    profile: await me.json(),
    loggedIn: true,
  };
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true, timeout: 30_000 });
  try {
    const load = async (path: string) => {
      const context = await browser.newContext();
      try {
        // The zustand persist format of apps/web/src/stores/auth-store.ts (as bundle.ts does).
        await context.addInitScript({
          content: `localStorage.setItem('auth', ${JSON.stringify(JSON.stringify({ state: auth, version: 1 }))});`,
        });
        const page = await context.newPage();
        const bodies: Promise<File | undefined>[] = [];
        page.on('response', (res) => {
          const file = new URL(res.url()).pathname;
          if (file.endsWith('.js') && res.status() === 200)
            bodies.push(
              res.body().then(
                (b) => ({ file, raw: b.length, gzip: gz(b) }),
                () => undefined,
              ),
            );
        });
        try {
          await page.goto(baseUrl + path, { waitUntil: 'networkidle', timeout: 30_000 });
        } catch {
          await page.waitForTimeout(2_000);
        }
        await page.waitForTimeout(1_000);
        const landed = new URL(page.url()).pathname;
        const notFound = await page
          .getByText(/no existe|no encontrad|404/i)
          .first()
          .isVisible()
          .catch(() => false);
        const files = [...new Map((await Promise.all(bodies)).filter((f): f is File => !!f).map((f) => [f.file, f])).values()];
        return { files, landed, notFound };
      } finally {
        await context.close();
      }
    };
    const shell = await load('/');
    const cal = await load('/calendar');
    if (cal.landed !== '/calendar' || cal.notFound)
      throw new CalendarRouteMissing(
        `/calendar is not a route of the web build yet (landed on ${cal.landed}${cal.notFound ? ', a not-found page' : ''})`,
      );
    const shellFiles = new Set(shell.files.map((f) => f.file));
    const own = cal.files.filter((f) => !shellFiles.has(f.file)).sort((a, b) => b.gzip - a.gzip);
    if (!own.length)
      throw new CalendarRouteMissing('/calendar loads no script the shell does not: no calendar route chunk in the web build');
    return { method: 'chromium', route: { ...sum(own), files: own }, total: sum(cal.files) };
  } finally {
    await browser.close();
  }
}

type ManifestChunk = { file: string; src?: string; isEntry?: boolean; isDynamicEntry?: boolean; imports?: string[] };

/** From the Vite manifest: the dynamic entries under features/calendar and their static imports, less the entry's. */
function staticCalendar(): CalendarBundle {
  const manifestPath = join(webDist, '.vite/manifest.json');
  if (!existsSync(manifestPath))
    throw new CalendarRouteMissing('no Vite manifest in apps/web/dist/.vite: cannot find the calendar chunks without Chromium');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
  const closure = (keys: string[]) => {
    const seen = new Set<string>();
    const stack = [...keys];
    while (stack.length) {
      const k = stack.pop()!;
      if (seen.has(k) || !manifest[k]) continue;
      seen.add(k);
      stack.push(...(manifest[k].imports ?? []));
    }
    return seen;
  };
  const entry = closure(Object.keys(manifest).filter((k) => manifest[k]!.isEntry));
  const routes = Object.keys(manifest).filter((k) => manifest[k]!.isDynamicEntry && (manifest[k]!.src ?? k).includes('features/calendar'));
  if (!routes.length)
    throw new CalendarRouteMissing(
      'no lazy chunk under features/calendar in the Vite manifest: the calendar route is not in the web build yet',
    );
  const toFile = (k: string): File => {
    const b = readFileSync(join(webDist, manifest[k]!.file));
    return { file: `/${manifest[k]!.file}`, raw: b.length, gzip: gz(b) };
  };
  const own = [...closure(routes)].filter((k) => !entry.has(k) && manifest[k]!.file.endsWith('.js')).map(toFile);
  const all = [...new Set([...entry, ...closure(routes)])].filter((k) => manifest[k]!.file.endsWith('.js')).map(toFile);
  return {
    method: 'static',
    route: { ...sum(own), files: own.sort((a, b) => b.gzip - a.gzip) },
    total: sum(all),
    note: 'static: the entry and the calendar chunks; the shell layout is not counted in the total',
  };
}
