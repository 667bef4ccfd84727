// The mail outbox against a real SMTP server on loopback: written in the action's transaction, relayed by
// a job, retried while the server is down, sent once, bounced addresses visible, nothing readable at rest.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { sql } from 'drizzle-orm';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AUTH, createTestApp, json, type TestApp } from '../../test/test-app';
import { freePort } from '../../test/server-process';
import { createWorkspace, therapist } from '../../test/workspace-fixtures';
import type { Member } from '@divan/core';

type Received = { from: string; to: string[]; raw: string };
const received: Received[] = [];
let smtp: SMTPServer | undefined;
let port: number;
let t: TestApp;

function startSmtp() {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onAuth(auth, _session, cb) {
      cb(auth.username === 'divan' && auth.password === 'secreto' ? null : new Error('bad auth'), { user: auth.username });
    },
    onRcptTo(address, _session, cb) {
      if (address.address.startsWith('noexiste@')) return cb(Object.assign(new Error('5.1.1 mailbox unavailable'), { responseCode: 550 }));
      cb();
    },
    onData(stream, session, cb) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        cb();
      });
    },
  });
  return new Promise<void>((res) => smtp!.listen(port, '127.0.0.1', res));
}
const stopSmtp = () => new Promise<void>((res) => (smtp ? smtp.close(() => res()) : res()));

const until = async (check: () => Promise<boolean> | boolean, ms = 20_000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not met in time');
};
const mailRow = async (to: string) => (await t.app.services.mailer.list(to, 1))[0]!;
const to = (address: string) => received.filter((r) => r.to.includes(address));

beforeAll(async () => {
  port = await freePort();
  await startSmtp();
  // On disk (not in memory): the test reads the database's own files.
  t = await createTestApp({
    smtpUrl: `smtp://divan:secreto@127.0.0.1:${port}`,
    mailFrom: 'Diván <hola@divan.test>',
    inMemoryDatabase: false,
    mailRetryDelaySeconds: 1,
  });
});
afterAll(async () => {
  await t?.close();
  await stopSmtp();
});

describe('mail over SMTP, through the outbox', () => {
  it('sends the confirmation mail to a real SMTP server, authenticated, once, and marks it sent', async () => {
    const res = await t.post(`${AUTH}/users`, { firstName: 'Lola', email: 'lola@example.com', password: 'Consulta2026' });
    expect(res.statusCode).toBe(201);
    await until(() => to('lola@example.com').length === 1);
    const [mail] = to('lola@example.com');
    expect(mail!.from).toBe('hola@divan.test');
    expect(mail!.raw).toMatch(/Subject: =\?UTF-8\?.*\?=|Subject: Confirma tu cuenta/);
    expect(mail!.raw).toContain('verify-email/');
    const row = await mailRow('lola@example.com');
    expect(mail!.raw).toContain(`Message-ID: <${row.id}@divan.mail>`);
    await until(async () => (await mailRow('lola@example.com')).status === 'sent');
    await new Promise((r) => setTimeout(r, 1500));
    expect(to('lola@example.com')).toHaveLength(1);
  });

  it('signs up while the SMTP server is down, and delivers the mail once when it comes back', async () => {
    await stopSmtp();
    const res = await t.post(`${AUTH}/users`, { firstName: 'Pilar', email: 'pilar@example.com', password: 'Consulta2026' });
    expect(res.statusCode).toBe(201);
    await until(async () => (await mailRow('pilar@example.com')).error !== null);
    expect((await mailRow('pilar@example.com')).status).toBe('queued');
    expect(to('pilar@example.com')).toHaveLength(0);
    await startSmtp();
    await until(() => to('pilar@example.com').length === 1, 30_000);
    await until(async () => (await mailRow('pilar@example.com')).status === 'sent');
    await new Promise((r) => setTimeout(r, 2500));
    expect(to('pilar@example.com')).toHaveLength(1);
    // The link in it works: the account is confirmed with it.
    const token = to('pilar@example.com')[0]!
      .raw.replace(/=\r?\n/g, '')
      .match(/verify-email\/([\w-]+)/)![1];
    expect(
      (
        await t.post(`${AUTH}/signup/challenge`, {
          code: token,
          appVersion: '1.0.0',
          deviceManufacturer: 'x',
          deviceModel: 'x',
          platformType: 'web',
          platformVersion: '1',
        })
      ).statusCode,
    ).toBe(200);
  });

  it('keeps no code or link of a mail once sent: only its recipient, subject and status', async () => {
    const row = await mailRow('lola@example.com');
    expect(row).toMatchObject({ to: 'lola@example.com', subject: 'Confirma tu cuenta de Diván', status: 'sent' });
    expect(row.text).not.toMatch(/verify-email/);
    expect(row.html).not.toMatch(/verify-email/);
  });

  it('resends a confirmation without failing, whatever the SMTP server answers', async () => {
    await t.rows(sql`update auth_challenges set created_at = created_at - interval '2 minutes'`);
    const res = await t.get(`${AUTH}/signup/challenge?email=lola@example.com`);
    expect(res.statusCode).toBe(204);
    await until(() => to('lola@example.com').length === 2);
  });

  it('sends nothing for an action that rolls back', async () => {
    const { mailer, database } = t.app.services;
    const attempt = database.db.transaction(async (tx) => {
      await mailer.send({ to: 'nadie@example.com', subject: 'No debe salir', text: 'x', html: '<p>x</p>' }, { tx, purpose: 'test' });
      throw new Error('rolled back');
    });
    await expect(attempt).rejects.toThrow('rolled back');
    // A sign-up refused (the email exists) sends nothing either.
    expect((await t.post(`${AUTH}/users`, { firstName: 'Otra', email: 'lola@example.com', password: 'Consulta2026' })).statusCode).toBe(
      409,
    );
    await new Promise((r) => setTimeout(r, 2500));
    expect(await mailer.list('nadie@example.com')).toEqual([]);
    expect(to('nadie@example.com')).toHaveLength(0);
    expect(to('lola@example.com')).toHaveLength(2);
  });

  it('marks an address the server refuses as bounced at once, and shows it to whoever invited', async () => {
    const owner = await therapist(t, 'owner@example.com', 'Rosa');
    const ws = await createWorkspace(t, owner, 'Clínica Correo', 'clinic');
    await t.app.services.workspaces.setPlan(ws.id, { id: 'team', seats: 5 });
    const roleId = ws.roles.find((r) => !r.isAdmin)!.id;
    const inv = await t.post(
      `/api/v1/workspaces/${ws.id}/invitations`,
      { email: 'noexiste@example.com', roleIds: [roleId] },
      { token: owner.accessToken },
    );
    expect(inv.statusCode).toBe(201);
    const mailOf = async () =>
      json<Member[]>(await t.get(`/api/v1/workspaces/${ws.id}/members`, { token: owner.accessToken })).find(
        (m) => m.email === 'noexiste@example.com',
      )?.mail;
    await until(async () => (await mailOf())?.status === 'bounced');
    expect((await mailOf())!.error).toContain('mailbox unavailable');
    const [row] = await t.rows<{ attempts: number }>(sql`select attempts from mail_outbox where purpose = 'invitation'`);
    expect(row!.attempts).toBe(1);
  });

  it('keeps waiting mail unreadable in the database and its files', async () => {
    await stopSmtp();
    expect(
      (await t.post(`${AUTH}/users`, { firstName: 'Secreta', email: 'secreta.persona@example.com', password: 'Consulta2026' })).statusCode,
    ).toBe(201);
    const waiting = await mailRow('secreta.persona@example.com');
    expect(waiting.status).not.toBe('sent');
    const link = waiting.text.match(/verify-email\/([\w-]+)/)![1]!;
    const raw = await t.rows<Record<string, unknown>>(sql`select * from mail_outbox`);
    const dump = JSON.stringify(raw);
    for (const secret of [link, 'secreta.persona', 'Confirma tu cuenta', 'Secreta']) expect(dump).not.toContain(secret);
    if (t.database === 'pglite') {
      await t.rows(sql`CHECKPOINT`);
      const files: string[] = [];
      const walk = (dir: string) =>
        readdirSync(dir).forEach((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : files.push(join(dir, f))));
      walk(join(t.config.dataDir, 'pgdata'));
      const hits = files.filter((f) => {
        const bytes = readFileSync(f);
        // (The address itself is in the users table: it is the account's login. The mail's link and words are not.)
        return bytes.includes(link) || bytes.includes('Gracias por registrarte');
      });
      expect(hits).toEqual([]);
    }
    await startSmtp();
  });
});
