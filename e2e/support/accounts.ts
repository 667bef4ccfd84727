import type { Browser, BrowserContext, Page } from 'playwright-core';
import { newContext } from './browser';
import { linkIn, waitForMail } from './mail';

const headers = { 'X-Client-Version': '1.0.0' };

export type SignedIn = {
  context: BrowserContext;
  page: Page;
  workspaceId: string;
  email: string;
  userId: string;
  /** The access token (the API as this user, outside their current workspace). */
  token: string;
  /** The API as this therapist, in their current workspace: `call('POST', '/patients', {...})`. */
  call: <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>;
};

/**
 * A new therapist signed up through the API and signed in by confirming the mail in the browser (the
 * cheap way in: the sign-up screens have their own tests). The context's storage holds the session.
 */
export async function signUpAndIn(browser: Browser, baseUrl: string, firstName: string): Promise<SignedIn> {
  const email = `${firstName
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()}.${Date.now()}.${Math.random().toString(36).slice(2, 7)}@example.com`;
  const res = await fetch(`${baseUrl}/api/v1/realms/therapists/users`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({ firstName, email, password: 'Consulta2025' }),
  });
  if (res.status !== 201) throw new Error(`sign-up: ${res.status} ${await res.text()}`);
  const context = await newContext(browser, baseUrl);
  const page = await context.newPage();
  const mail = await waitForMail(baseUrl, email, (m) => m.text.includes('/verify-email/'));
  await page.goto(linkIn(mail, '/verify-email'));
  await page.waitForURL(`${baseUrl}/`);
  await page.waitForFunction(
    () => !!(JSON.parse(localStorage.getItem('workspaces') ?? '{}') as { state?: { currentId?: string } }).state?.currentId,
  );
  const { token, userId, workspaceId } = await page.evaluate(() => ({
    token: (JSON.parse(localStorage.getItem('auth') ?? '{}') as { state?: { accessToken?: string } }).state?.accessToken ?? '',
    userId: (JSON.parse(localStorage.getItem('auth') ?? '{}') as { state?: { userId?: string } }).state?.userId ?? '',
    workspaceId: (JSON.parse(localStorage.getItem('workspaces') ?? '{}') as { state?: { currentId?: string } }).state?.currentId ?? '',
  }));
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const r = await fetch(`${baseUrl}/api/v1/workspaces/${workspaceId}${path}`, {
      method,
      headers: { ...headers, Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  };
  return { context, page, workspaceId, email, userId, token, call };
}

/** A day in Madrid, 'YYYY-MM-DD', `offset` days from today. */
export function madridIsoDay(offset = 0): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Madrid', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(),
  );
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + offset)).toISOString().slice(0, 10);
}
