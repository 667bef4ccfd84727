import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { sql } from 'drizzle-orm';
import { AUTH, createTestApp, type TestApp } from '../../test/test-app';
import { freePort } from '../../test/server-process';

type Received = { from: string; to: string[]; raw: string };
const received: Received[] = [];
let smtp: SMTPServer;
let t: TestApp;
let failNext = false;

beforeAll(async () => {
  const port = await freePort();
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onAuth(auth, _session, cb) {
      cb(auth.username === 'divan' && auth.password === 'secreto' ? null : new Error('bad auth'), { user: auth.username });
    },
    onData(stream, session, cb) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      stream.on('end', () => {
        if (failNext) {
          failNext = false;
          return cb(new Error('mailbox unavailable'));
        }
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), raw });
        cb();
      });
    },
  });
  await new Promise<void>((res) => smtp.listen(port, '127.0.0.1', res));
  t = await createTestApp({ smtpUrl: `smtp://divan:secreto@127.0.0.1:${port}`, mailFrom: 'Diván <hola@divan.test>' });
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((res) => smtp.close(() => res()));
});

describe('mail over SMTP', () => {
  it('sends the confirmation mail to a real SMTP server, authenticated, and marks it sent', async () => {
    const res = await t.post(`${AUTH}/users`, { firstName: 'Lola', email: 'lola@example.com', password: 'Consulta2026' });
    expect(res.statusCode).toBe(201);
    expect(received).toHaveLength(1);
    expect(received[0]!.from).toBe('hola@divan.test');
    expect(received[0]!.to).toEqual(['lola@example.com']);
    expect(received[0]!.raw).toMatch(/Subject: =\?UTF-8\?.*\?=|Subject: Confirma tu cuenta/);
    expect(received[0]!.raw).toContain('verify-email/');
    const [row] = await t.rows<{ sent_at: Date | null; error: string | null }>(sql`select sent_at, error from mail_outbox`);
    expect(row!.sent_at).not.toBeNull();
    expect(row!.error).toBeNull();
  });

  it('answers mail_send_failed with the Spanish message when the server refuses a resend', async () => {
    await t.rows(sql`update auth_challenges set created_at = created_at - interval '2 minutes'`);
    failNext = true;
    const res = await t.get(`${AUTH}/signup/challenge?email=lola@example.com`);
    expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 502, body: { code: 'mail_send_failed', message: 'Error al reenviar el email' } });
  });
});
