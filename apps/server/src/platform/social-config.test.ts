import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

const env = (extra: Record<string, string>) =>
  ({ APP_SECRET: 'x'.repeat(64), DATA_DIR: '/tmp/divan-config-test', ...extra }) as NodeJS.ProcessEnv;
const es256 = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const apple = { APPLE_CLIENT_ID: 'es.divan.web', APPLE_TEAM_ID: 'TEAM123456', APPLE_KEY_ID: 'KEY1234567', APPLE_PRIVATE_KEY: es256 };

describe('GOOGLE_* and APPLE_* (sign in with Google or Apple)', () => {
  it('is off when unset', () => {
    expect(loadConfig(env({})).social).toEqual({});
  });

  it('takes Google with its secret, and Apple with its team, key id and ES256 key (escaped newlines too); the issuers default', () => {
    const social = loadConfig(
      env({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret', ...apple, APPLE_PRIVATE_KEY: es256.replace(/\n/g, '\\n') }),
    ).social;
    expect(social?.google).toEqual({ clientId: 'id', clientSecret: 'secret', issuer: 'https://accounts.google.com' });
    expect(social?.apple).toMatchObject({
      clientId: 'es.divan.web',
      teamId: 'TEAM123456',
      keyId: 'KEY1234567',
      issuer: 'https://appleid.apple.com',
    });
    expect(social?.apple?.privateKey).toBe(es256.trim());
    expect(loadConfig(env({ ...apple, APPLE_ISSUER: 'http://127.0.0.1:4000/' })).social?.apple?.issuer).toBe('http://127.0.0.1:4000');
  });

  it('stops start-up naming what is missing or wrong', () => {
    expect(() => loadConfig(env({ GOOGLE_CLIENT_ID: 'id' }))).toThrow(/^Invalid environment variable GOOGLE_CLIENT_SECRET: required/);
    expect(() => loadConfig(env({ APPLE_CLIENT_ID: 'x' }))).toThrow(/^Invalid environment variable APPLE_TEAM_ID: required/);
    expect(() => loadConfig(env({ ...apple, APPLE_PRIVATE_KEY: 'no es una clave' }))).toThrow(
      /^Invalid environment variable APPLE_PRIVATE_KEY/,
    );
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => loadConfig(env({ ...apple, APPLE_PRIVATE_KEY: rsa }))).toThrow(/^Invalid environment variable APPLE_PRIVATE_KEY/);
    expect(() => loadConfig(env({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 's', GOOGLE_ISSUER: 'http://google.example' }))).toThrow(
      /^Invalid environment variable GOOGLE_ISSUER: must be an https/,
    );
  });
});
