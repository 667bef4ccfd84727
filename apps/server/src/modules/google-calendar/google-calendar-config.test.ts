import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../platform/config';

const env = (extra: Record<string, string>) =>
  ({ APP_SECRET: 'x'.repeat(64), DATA_DIR: '/tmp/divan-config-test', ...extra }) as NodeJS.ProcessEnv;

describe('Google Calendar’s configuration', () => {
  it('is off without GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET', () => {
    expect(loadConfig(env({})).googleCalendar).toBeUndefined();
  });

  it('defaults to Google’s endpoints and a 10-minute poll; the bases can point elsewhere', () => {
    expect(loadConfig(env({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 's' })).googleCalendar).toEqual({
      clientId: 'id',
      clientSecret: 's',
      oauthBase: 'https://accounts.google.com',
      tokenBase: 'https://oauth2.googleapis.com',
      apiBase: 'https://www.googleapis.com',
      pollMinutes: 10,
    });
    const local = loadConfig(
      env({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 's', GOOGLE_API_BASE: 'http://127.0.0.1:9/', GOOGLE_CALENDAR_POLL_MINUTES: '2' }),
    ).googleCalendar;
    expect([local?.apiBase, local?.pollMinutes]).toEqual(['http://127.0.0.1:9', 2]);
  });

  it('stops start-up on a wrong value, naming it', () => {
    expect(() => loadConfig(env({ GOOGLE_CALENDAR_POLL_MINUTES: '0' }))).toThrow(ConfigError);
    expect(() => loadConfig(env({ GOOGLE_API_BASE: 'no es una url' }))).toThrow(/GOOGLE_API_BASE/);
  });
});
