import { createPrivateKey } from 'node:crypto';

/** Sign in with Google or Apple (issue 30): each provider on only when all of its settings are set. */
export type SocialConfig = {
  google?: { clientId: string; clientSecret: string; issuer: string };
  /** APPLE_PRIVATE_KEY: the team's ES256 key (.p8, PEM) that signs the client secret sent to Apple's token endpoint. */
  apple?: { clientId: string; teamId: string; keyId: string; privateKey: string; issuer: string };
};

type Env = Partial<
  Record<
    | 'GOOGLE_CLIENT_ID'
    | 'GOOGLE_CLIENT_SECRET'
    | 'GOOGLE_ISSUER'
    | 'APPLE_CLIENT_ID'
    | 'APPLE_TEAM_ID'
    | 'APPLE_KEY_ID'
    | 'APPLE_PRIVATE_KEY'
    | 'APPLE_ISSUER',
    string
  >
>;

export const GOOGLE_ISSUER = 'https://accounts.google.com';
export const APPLE_ISSUER = 'https://appleid.apple.com';

class SocialConfigError extends Error {}

/**
 * GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET together; APPLE_CLIENT_ID, APPLE_TEAM_ID, APPLE_KEY_ID and APPLE_PRIVATE_KEY
 * together (a key given with `\n` escapes is read as PEM). Some of a provider's settings without the others stop start-up
 * naming the missing one. The issuers default to Google's and Apple's (tests point them at a loopback fake).
 */
export function socialConfig(e: Env): SocialConfig {
  const fail = (name: string, why: string): never => {
    throw new SocialConfigError(`Invalid environment variable ${name}: ${why}`);
  };
  const issuer = (name: string, value: string | undefined, fallback: string) => {
    const v = (value ?? fallback).replace(/\/$/, '');
    let url: URL | undefined;
    try {
      url = new URL(v);
    } catch {
      return fail(name, 'must be a URL');
    }
    if (url.protocol !== 'https:' && !isLoopback(url)) fail(name, 'must be an https:// URL (http only on a loopback address)');
    return v;
  };
  const out: SocialConfig = {};
  const google = { GOOGLE_CLIENT_ID: e.GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET: e.GOOGLE_CLIENT_SECRET };
  const googleMissing = missing(google);
  if (googleMissing.length === 0)
    out.google = {
      clientId: e.GOOGLE_CLIENT_ID!,
      clientSecret: e.GOOGLE_CLIENT_SECRET!,
      issuer: issuer('GOOGLE_ISSUER', e.GOOGLE_ISSUER, GOOGLE_ISSUER),
    };
  else if (googleMissing.length < 2) fail(googleMissing[0]!, 'required with the other GOOGLE_CLIENT_* setting');
  const apple = {
    APPLE_CLIENT_ID: e.APPLE_CLIENT_ID,
    APPLE_TEAM_ID: e.APPLE_TEAM_ID,
    APPLE_KEY_ID: e.APPLE_KEY_ID,
    APPLE_PRIVATE_KEY: e.APPLE_PRIVATE_KEY,
  };
  const appleMissing = missing(apple);
  if (appleMissing.length === 0) {
    const privateKey = e.APPLE_PRIVATE_KEY!.replace(/\\n/g, '\n').trim();
    try {
      const key = createPrivateKey(privateKey);
      if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') throw new Error('not P-256');
    } catch {
      fail('APPLE_PRIVATE_KEY', 'must be the ES256 private key (.p8, PEM «-----BEGIN PRIVATE KEY-----») Apple gave for APPLE_KEY_ID');
    }
    out.apple = {
      clientId: e.APPLE_CLIENT_ID!,
      teamId: e.APPLE_TEAM_ID!,
      keyId: e.APPLE_KEY_ID!,
      privateKey,
      issuer: issuer('APPLE_ISSUER', e.APPLE_ISSUER, APPLE_ISSUER),
    };
  } else if (appleMissing.length < 4) fail(appleMissing[0]!, 'required with the other APPLE_* settings');
  return out;
}

export const isSocialConfigError = (err: unknown): err is Error => err instanceof SocialConfigError;

const missing = (vars: Record<string, string | undefined>) =>
  Object.entries(vars)
    .filter(([, v]) => !v)
    .map(([k]) => k);

export const isLoopback = (url: URL) => ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
