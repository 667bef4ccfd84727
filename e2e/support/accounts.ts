import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiAs, ok, signUp, type Api } from './api';
import { newContext } from './browser';
import { linkIn, waitForMail } from './mail';

export type SignedIn = {
  context: BrowserContext;
  page: Page;
  workspaceId: string;
  email: string;
  userId: string;
  /** The access token (the API as this user, outside their current workspace). */
  token: string;
  /** The API as this user (`/me`, `/workspaces`…); `api.in(workspaceId)` for another workspace. */
  api: Api;
  /** The API as this therapist, in their current workspace: `call('POST', '/patients', {...})`; fails on a status of 300 or more. */
  call: <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>;
};

/** A unique address for `firstName` (accents dropped): `lucia.1764638400000.k3x9a@example.com`. */
export function emailFor(firstName: string): string {
  return `${firstName
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()}.${Date.now()}.${Math.random().toString(36).slice(2, 7)}@example.com`;
}

/**
 * A new therapist signed up through the API and signed in by confirming the mail in the browser (the
 * cheap way in: the sign-up screens have their own tests). The context's storage holds the session.
 * `email`: the address to sign up with (a unique one by default).
 */
export async function signUpAndIn(
  browser: Browser,
  baseUrl: string,
  firstName: string,
  options: { email?: string } = {},
): Promise<SignedIn> {
  const email = options.email ?? emailFor(firstName);
  await signUp(firstName, email);
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
  const api = apiAs(token);
  const inWorkspace = api.in(workspaceId);
  const call = <T>(method: string, path: string, body?: unknown): Promise<T> =>
    ok(inWorkspace.request<T>(method, path, body)).catch((e: Error) => {
      throw new Error(`${method} ${path}: ${e.message}`);
    });
  return { context, page, workspaceId, email, userId, token, api, call };
}
