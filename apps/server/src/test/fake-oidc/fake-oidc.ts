/**
 * Test support (issue 30): a fake Google or a fake Apple, a real OpenID provider (oidc-provider 9) on 127.0.0.1 at a
 * random port, for the server tests and the end-to-end suite.
 *
 *   const google = await startFakeOidc({ kind: 'google', clientId: 'divan-web', redirectUris: [`${publicUrl}/auth/google/callback`] });
 *   const apple = await startFakeOidc({ kind: 'apple', clientId: 'es.divan.web', redirectUris: [`${publicUrl}/api/v1/realms/therapists/login/apple/callback`] });
 *   // Diván's environment: { ...google.env, ...apple.env } (GOOGLE_CLIENT_ID/SECRET/ISSUER, APPLE_CLIENT_ID/TEAM_ID/KEY_ID/PRIVATE_KEY/ISSUER)
 *   // or as a Config: { social: { google: google.settings.google, apple: apple.settings.apple } }
 *   await google.close();
 *
 * Every authorization shows one page, `/interaction/:uid` (Google's account chooser and Apple's sign-in alike: a prompt to
 * log in is forced each time), a plain form a browser test fills:
 *   input[name=email] (required) · input[name=name] (full name, «Ana López») · input[name=verified] (checkbox, checked:
 *   the email is verified) · Apple only: input[name=relay] (checkbox, checked: hide the email behind a private relay
 *   address) · button[name=submit] «Continuar» (logs in and consents at once) · button[name=cancel] «Cancelar».
 * The subject is stable per email (the same email is the same identity); the name and the two boxes update the account
 * on each submission.
 *
 * Google-like: standard claims in the id_token (email, email_verified as a boolean, name, given_name, family_name); the
 * browser is redirected to the redirect_uri with code, state and iss; `prompt=select_account` is taken.
 * Apple-like: `scope=name email` is taken (the id_token is issued as Apple's is); email_verified and is_private_email are
 * the strings "true"/"false"; the answer is response_mode=form_post: an auto-submitting page posts code, state (and
 * iss) to the redirect_uri, plus `user` = {"name":{"firstName","lastName"},"email"} on the account's first consent only;
 * the relay address is `<stable>@privaterelay.appleid.com`. The token endpoint takes as client_secret only an ES256 JWT
 * signed by `settings.apple.privateKey` (kid = keyId, iss = teamId, sub = clientId, aud = issuer, at most 6 months).
 *
 * Without a browser, `authorize(url, person)` follows the redirects with fetch, posts the interaction form and returns
 * what the browser would have carried to the redirect_uri (see fake-oidc-driver.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportPKCS8, generateKeyPair, jwtVerify, decodeProtectedHeader, type CryptoKey } from 'jose';
import type OidcProvider from 'oidc-provider';
import type { KoaContext } from 'oidc-provider';
import type { SocialConfig } from '../../platform/social-config';
import { fakeOidcAdapter } from './fake-oidc-adapter';
import { driveAuthorization, type FakeAnswer, type FakePerson } from './fake-oidc-driver';
import { escapeHtml, interactionPage } from './fake-oidc-pages';

export type { FakeAnswer, FakePerson } from './fake-oidc-driver';
export type FakeOidcOptions = {
  kind: 'google' | 'apple';
  clientId: string;
  /** Where the provider may send its answers (Diván's redirect URIs). */
  redirectUris: string[];
  /** Google: the client secret (client_secret_post); default random. */
  clientSecret?: string;
  /** Apple: the team and key ids of the generated ES256 key; defaults given. */
  teamId?: string;
  keyId?: string;
};
export type FakeAccount = {
  subject: string;
  email: string;
  name: string;
  verified: boolean;
  /** Apple: the id_token carries the relay address instead of the email. */
  relay: boolean;
  relayEmail: string;
  /** Apple: the `user` form field has been posted already (first consent only). */
  userSent: boolean;
};
export type FakeOidc = {
  kind: 'google' | 'apple';
  issuer: string;
  clientId: string;
  /** Diván's settings for this provider, as its Config takes them. */
  settings: SocialConfig;
  /** The same as environment variables. */
  env: Record<string, string>;
  /** Accounts by email, as the interaction form left them. */
  accounts: Map<string, FakeAccount>;
  /** Token requests refused for their client authentication (Apple: a client secret JWT that does not verify). */
  refusedClientAuth: number;
  authorize(url: string, person: FakePerson): Promise<FakeAnswer>;
  close(): Promise<void>;
};

const SIX_MONTHS_S = 15_777_000;

let loading: Promise<typeof OidcProvider> | undefined;
/**
 * oidc-provider, imported once. On import it warns (through `console.warn`, its only logger) that a Node.js older than
 * 22 LTS is not a runtime it supports — true of production, not of this test fake, which runs on the Node of the repo:
 * that one line is dropped while the module loads; every other line, its own included, goes through.
 */
function loadProvider() {
  loading ??= (async () => {
    const warn = console.warn;
    console.warn = (...args: unknown[]) => {
      if (typeof args[0] === 'string' && args[0].includes('oidc-provider WARNING: Unsupported runtime')) return;
      warn(...args);
    };
    try {
      return (await import('oidc-provider')).default;
    } finally {
      console.warn = warn;
    }
  })();
  return loading;
}

export async function startFakeOidc(opts: FakeOidcOptions): Promise<FakeOidc> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const apple = opts.kind === 'apple';
  const staticSecret = apple ? randomBytes(24).toString('hex') : (opts.clientSecret ?? randomBytes(24).toString('hex'));
  const teamId = opts.teamId ?? 'TEAMID1234';
  const keyId = opts.keyId ?? 'KEYID12345';
  const appleKeys = apple ? await generateKeyPair('ES256', { extractable: true }) : undefined;
  const signing = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(signing.privateKey)), kid: `fake-${opts.kind}`, alg: 'RS256', use: 'sig' };

  const accounts = new Map<string, FakeAccount>();
  const bySubject = new Map<string, FakeAccount>();
  const Provider = await loadProvider();
  const provider = new Provider(issuer, {
    adapter: fakeOidcAdapter(),
    clients: [
      {
        client_id: opts.clientId,
        client_secret: staticSecret,
        redirect_uris: opts.redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified', ...(apple ? ['is_private_email'] : [])],
      profile: ['name', 'given_name', 'family_name'],
      name: [],
    },
    // Like Google's and Apple's, the id_token carries the claims (no userinfo call needed).
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx: unknown, sub: string) => {
      const a = bySubject.get(sub);
      if (!a) return undefined;
      return { accountId: sub, claims: () => claimsOf(a, apple) };
    },
    renderError: (ctx: KoaContext, out: Record<string, string>) => {
      ctx.type = 'html';
      ctx.body = `<!doctype html><title>Error</title><h1>${escapeHtml(out.error ?? 'error')}</h1><p>${escapeHtml(out.error_description ?? '')}</p>`;
    },
  });

  const fake: FakeOidc = {
    kind: opts.kind,
    issuer,
    clientId: opts.clientId,
    settings: apple
      ? {
          apple: {
            clientId: opts.clientId,
            teamId,
            keyId,
            privateKey: await exportPKCS8(appleKeys!.privateKey),
            issuer,
          },
        }
      : { google: { clientId: opts.clientId, clientSecret: staticSecret, issuer } },
    env: {},
    accounts,
    refusedClientAuth: 0,
    authorize: (url, person) => driveAuthorization(issuer, url, person),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  fake.env = apple
    ? {
        APPLE_CLIENT_ID: opts.clientId,
        APPLE_TEAM_ID: teamId,
        APPLE_KEY_ID: keyId,
        APPLE_PRIVATE_KEY: fake.settings.apple!.privateKey,
        APPLE_ISSUER: issuer,
      }
    : { GOOGLE_CLIENT_ID: opts.clientId, GOOGLE_CLIENT_SECRET: staticSecret, GOOGLE_ISSUER: issuer };

  // Apple's client secret is an ES256 JWT signed by the team's key, not a shared secret: the client's comparison checks
  // that instead (oidc-provider then answers invalid_client as Apple does). The token request's body stays oidc-provider's
  // to read (read before it, it would warn of a body parsed upstream).
  if (apple)
    provider.Client.prototype.compareClientSecret = async (actual: string) => {
      const valid = await appleSecretValid(actual);
      if (!valid) fake.refusedClientAuth++;
      return valid;
    };

  // Before oidc-provider's routes: what Google and Apple take that oidc-provider would refuse, the interaction page,
  // and Apple's `user` field on the first consent.
  provider.use(async (ctx, next) => {
    if (ctx.path === '/auth' && ctx.method === 'GET') {
      const query = { ...ctx.query } as Record<string, string>;
      // Every authorization shows the form (Google's chooser, Apple's sign-in).
      query.prompt = 'login';
      if (apple)
        query.scope = ['openid', ...String(query.scope ?? '').split(' ')].filter((s, i, all) => s && all.indexOf(s) === i).join(' ');
      ctx.query = query;
    }
    if (ctx.path.startsWith('/interaction/')) return interaction(ctx);
    await next();
    if (apple && typeof ctx.body === 'string' && ctx.body.includes('<form method="post"') && ctx.body.includes('name="code"')) {
      const account = bySubject.get(ctx.oidc?.session?.accountId ?? '');
      if (account && !account.userSent) {
        account.userSent = true;
        const [firstName, ...rest] = account.name.split(' ');
        const user = JSON.stringify({ name: { firstName, lastName: rest.join(' ') }, email: emailOf(account, true) });
        ctx.body = ctx.body.replace('<noscript>', `<input type="hidden" name="user" value="${escapeHtml(user)}"/>\n<noscript>`);
      }
    }
  });

  async function interaction(ctx: KoaContext) {
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    if (ctx.method === 'GET') {
      ctx.type = 'html';
      ctx.body = interactionPage({ uid: details.uid, kind: opts.kind, clientId: details.params.client_id ?? '' });
      return;
    }
    const form = Object.fromEntries(new URLSearchParams(await readBody(ctx.req)));
    if (form.cancel) {
      const error = apple ? 'user_cancelled_authorize' : 'access_denied';
      return provider.interactionFinished(ctx.req, ctx.res, { error, error_description: 'cancelled' }, { mergeWithLastSubmission: false });
    }
    const email = (form.email ?? '').trim().toLowerCase();
    if (!email.includes('@')) {
      ctx.status = 400;
      ctx.type = 'html';
      ctx.body = interactionPage({ uid: details.uid, kind: opts.kind, clientId: details.params.client_id ?? '', error: 'Falta el email' });
      return;
    }
    const account = accounts.get(email) ?? newAccount(opts.kind, email);
    account.name = (form.name ?? '').trim() || account.name;
    account.verified = form.verified === '1' || form.verified === 'on';
    account.relay = apple && (form.relay === '1' || form.relay === 'on');
    accounts.set(email, account);
    bySubject.set(account.subject, account);
    const grant = new provider.Grant({ accountId: account.subject, clientId: details.params.client_id! });
    grant.addOIDCScope(details.params.scope ?? 'openid');
    const grantId = await grant.save();
    await provider.interactionFinished(
      ctx.req,
      ctx.res,
      { login: { accountId: account.subject }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }

  async function appleSecretValid(secret: string | undefined): Promise<boolean> {
    if (!secret) return false;
    try {
      if (decodeProtectedHeader(secret).kid !== keyId) return false;
      const { payload } = await jwtVerify(secret, appleKeys!.publicKey as CryptoKey, {
        algorithms: ['ES256'],
        issuer: teamId,
        subject: opts.clientId,
        audience: issuer,
      });
      return typeof payload.exp === 'number' && typeof payload.iat === 'number' && payload.exp - payload.iat <= SIX_MONTHS_S;
    } catch {
      return false;
    }
  }

  server.on('request', provider.callback());
  return fake;
}

function newAccount(kind: 'google' | 'apple', email: string): FakeAccount {
  const hex = createHash('sha256').update(`${kind}:${email}`).digest('hex');
  const digits = BigInt(`0x${hex.slice(0, 15)}`)
    .toString()
    .padStart(20, '1');
  return {
    subject: kind === 'google' ? `1${digits}` : `001${digits.slice(0, 3)}.${hex.slice(16, 48)}.${hex.slice(48, 52)}`,
    email,
    name: '',
    verified: true,
    relay: false,
    relayEmail: `${hex.slice(52, 62)}@privaterelay.appleid.com`,
    userSent: false,
  };
}

const emailOf = (a: FakeAccount, apple: boolean) => (apple && a.relay ? a.relayEmail : a.email);

function claimsOf(a: FakeAccount, apple: boolean) {
  if (apple) {
    return {
      sub: a.subject,
      email: emailOf(a, true),
      email_verified: a.verified ? 'true' : 'false',
      is_private_email: a.relay ? 'true' : 'false',
    };
  }
  const [given, ...family] = a.name.split(' ');
  return {
    sub: a.subject,
    email: a.email,
    email_verified: a.verified,
    ...(a.name ? { name: a.name, given_name: given, ...(family.length ? { family_name: family.join(' ') } : {}) } : {}),
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
