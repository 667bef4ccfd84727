/**
 * What a browser does at a fake provider (fake-oidc.ts), with fetch: follows the authorization URL's redirects with a
 * cookie jar, posts the interaction form for `person`, and returns what would reach the redirect_uri — Google's redirect
 * (GET with code, state, iss), or Apple's auto-submitting form_post (code, state, iss and, the first time, user).
 */
export type FakePerson = {
  email: string;
  /** Full name, «Ana López» (Apple posts it split in `user` on the first consent only). */
  name?: string;
  /** The provider says the email is verified (default true). */
  verified?: boolean;
  /** Apple: hide the email behind the private relay address (default false). */
  relay?: boolean;
  /** Press «Cancelar» instead. */
  cancel?: boolean;
};
export type FakeAnswer = {
  /** How the browser would reach the redirect_uri: a redirect (GET) or the auto-submitted form (POST). */
  method: 'GET' | 'POST';
  redirectUri: string;
  /** Every field (code, state, iss, user, error…). */
  fields: Record<string, string>;
  code?: string;
  state?: string;
  user?: string;
  error?: string;
};

const unescapeHtml = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

export async function driveAuthorization(issuer: string, authorizationUrl: string, person: FakePerson): Promise<FakeAnswer> {
  const jar = new Map<string, string>();
  const go = async (url: URL, init: RequestInit = {}) => {
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as object), ...(cookie ? { cookie } : {}) } });
    for (const c of res.headers.getSetCookie()) {
      const pair = c.split(';')[0]!;
      const i = pair.indexOf('=');
      const [name, value] = [pair.slice(0, i), pair.slice(i + 1)];
      if (!value || /expires=Thu, 01 Jan 1970/i.test(c)) jar.delete(name);
      else jar.set(name, value);
    }
    return res;
  };
  const answer = (method: 'GET' | 'POST', redirectUri: string, fields: Record<string, string>): FakeAnswer => ({
    method,
    redirectUri,
    fields,
    code: fields.code,
    state: fields.state,
    user: fields.user,
    error: fields.error,
  });

  let url = new URL(authorizationUrl);
  let res = await go(url);
  for (let step = 0; step < 12; step++) {
    if (res.status >= 300 && res.status < 400) {
      const next = new URL(res.headers.get('location')!, url);
      if (next.origin !== new URL(issuer).origin) {
        return answer('GET', `${next.origin}${next.pathname}`, Object.fromEntries(next.searchParams));
      }
      url = next;
      res = await go(url);
      continue;
    }
    const html = await res.text();
    if (res.status === 200 && html.includes('data-fake-oidc="interaction"')) {
      const action = new URL(html.match(/action="([^"]+)"/)![1]!, url);
      const form = new URLSearchParams();
      if (person.cancel) form.set('cancel', '1');
      else {
        form.set('email', person.email);
        form.set('name', person.name ?? '');
        if (person.verified !== false) form.set('verified', '1');
        if (person.relay) form.set('relay', '1');
        form.set('submit', '1');
      }
      url = action;
      res = await go(action, { method: 'POST', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      continue;
    }
    const formPost = html.match(/<form method="post" action="([^"]+)">/);
    if (res.status < 500 && formPost) {
      const fields: Record<string, string> = {};
      for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)) fields[m[1]!] = unescapeHtml(m[2]!);
      return answer('POST', unescapeHtml(formPost[1]!), fields);
    }
    throw new Error(`fake provider: unexpected ${res.status} at ${url.href}: ${html.slice(0, 300)}`);
  }
  throw new Error('fake provider: too many redirects');
}
