// The companion's first screen (/p/, signed out: its sign-in) and the page a connect mail opens
// (/p/connect/:token): JavaScript the browser loads, each .js answer gzipped at level 9 and summed, in
// Debian's Chromium against the running server. Budget (issue 15): 100 KB for the first screen.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { PageBundle } from './bundle';
import { errorMessage, webDist } from './util';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function measureCompanion(baseUrl: string): Promise<{ method: 'chromium'; pages: PageBundle[] }> {
  if (!existsSync(join(webDist, 'companion.html')))
    throw new Error('companion not built (apps/web/dist/companion.html missing): run `npm run build -w apps/web`');
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) throw new Error(`Chromium not found at ${executablePath}`);
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true, timeout: 30_000 });
  try {
    const load = async (path: string): Promise<PageBundle> => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, serviceWorkers: 'block' });
      try {
        const page = await context.newPage();
        const files: Promise<PageBundle['files'][number] | null>[] = [];
        page.on('response', (res) => {
          const file = new URL(res.url()).pathname;
          if (file.endsWith('.js') && res.status() === 200)
            files.push(
              res.body().then(
                (b) => ({ file, raw: b.length, gzip: gzipSync(b, { level: 9 }).length }),
                (e: unknown) => (console.log(`  ${file}: ${errorMessage(e)}`), null),
              ),
            );
        });
        await page.goto(baseUrl + path, { waitUntil: 'networkidle', timeout: 30_000 });
        await page.waitForTimeout(500);
        const unique = [...new Map((await Promise.all(files)).filter((f) => f !== null).map((f) => [f.file, f])).values()];
        return { path, rawBytes: unique.reduce((s, f) => s + f.raw, 0), gzipBytes: unique.reduce((s, f) => s + f.gzip, 0), files: unique };
      } finally {
        await context.close();
      }
    };
    return { method: 'chromium', pages: [await load('/p/'), await load('/p/connect/enlace-de-prueba')] };
  } finally {
    await browser.close();
  }
}
