// /dev/mail shows login codes and reset links: only outside production, without SMTP (or when asked
// for), from this machine and not through a proxy; and mail keeps its body only as long as it must.
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { AUTH, createTestApp, type TestApp } from '../../test/test-app';

const apps: TestApp[] = [];
afterAll(async () => {
  for (const a of apps) await a.close();
});
const app = async (overrides: Parameters<typeof createTestApp>[0] = {}) => {
  const t = await createTestApp(overrides);
  apps.push(t);
  return t;
};
const outbox = (t: TestApp, headers: Record<string, string> = {}) => t.get('/dev/mail/messages', { headers });

describe('/dev/mail', () => {
  it('answers from this machine, and not a request that came through a reverse proxy', async () => {
    const t = await app();
    expect((await outbox(t)).statusCode).toBe(200);
    for (const h of ['x-forwarded-for', 'forwarded', 'x-real-ip']) expect((await outbox(t, { [h]: '203.0.113.7' })).statusCode).toBe(404);
    expect((await t.get('/dev/mail', { headers: { 'x-forwarded-for': '203.0.113.7' } })).statusCode).toBe(404);
  });

  // One app per test: each boots its own database, three in one test outran the timeout on a busy 2-core machine.
  it('does not exist with SMTP configured', async () => {
    expect((await outbox(await app({ smtpUrl: 'smtp://127.0.0.1:1' }))).statusCode).toBe(404);
  });
  it('exists with SMTP configured when DEV_MAIL=on', async () => {
    expect((await outbox(await app({ smtpUrl: 'smtp://127.0.0.1:1', devMail: true }))).statusCode).toBe(200);
  });
  it('never exists in production', async () => {
    expect((await outbox(await app({ env: 'production' }))).statusCode).toBe(404);
  });

  it('keeps a sent mail readable for a day, then only its recipient, subject and status', async () => {
    const t = await app();
    expect((await t.post(`${AUTH}/users`, { firstName: 'Rosa', email: 'rosa@example.com', password: 'Consulta2026' })).statusCode).toBe(
      201,
    );
    for (let i = 0; i < 100 && (await t.lastMail('rosa@example.com')).status !== 'sent'; i++) await new Promise((r) => setTimeout(r, 50));
    const link = (await t.lastMail('rosa@example.com')).text.match(/verify-email\/([\w-]+)/)![1]!;
    await t.rows(sql`update mail_outbox set created_at = now() - interval '25 hours'`);
    await t.app.services.jobs.runSweeps();
    const after = await t.lastMail('rosa@example.com');
    expect(after).toMatchObject({ to: 'rosa@example.com', subject: 'Confirma tu cuenta de Diván', status: 'sent' });
    expect(after.text).not.toContain(link);
    expect(after.html).not.toContain(link);
  });

  it('dates each mail DD/MM/YYYY HH:mm in Madrid', async () => {
    const t = await app();
    expect((await t.post(`${AUTH}/users`, { firstName: 'Rosa', email: 'rosa@example.com', password: 'Consulta2026' })).statusCode).toBe(
      201,
    );
    await t.rows(sql`update mail_outbox set created_at = '2026-07-05T08:07:00Z'`);
    const page = (await t.get('/dev/mail')).body;
    // 10:07 in Madrid (summer time), not «5/7/2026, 10:07:00».
    expect(page).toContain('Para rosa@example.com · 05/07/2026 10:07 · ');
  });
});
