// Issue 11: issued invoices reach the AEAT through a queued job, one issuer's submissions at a time,
// honouring TiempoEsperaEnvio, retrying failures with backoff, never resending what was decided, with the
// outcome of each record in the database and on the invoice's status route. The AEAT is a local endpoint.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Invoice, type VerifactuStatus } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../../../test/test-app';
import { clinic, W, type Clinic } from '../../../../test/session-fixtures';
import type { Therapist } from '../../../../test/workspace-fixtures';
import { AeatEndpoint } from './aeat-endpoint.testkit';
import { AeatSoapSender } from './sender';
import { makeTestCertificates, skipTls, type TestCertificates } from './test-certificates.testkit';
import { VERIFACTU_SEND_QUEUE, VerifactuSending } from './verifactu-sending.service';

const THERAPIST_NIF = '12345678Z';
const CLINIC_CIF = 'B12345674';
const SECOND = 1000;

let certs: TestCertificates;
let aeat: AeatEndpoint;
let t: TestApp;
let c: Clinic;
/** The clock of the app and of the sending: moved by the tests, never slept on. */
let now = new Date();
const clock = () => now;
const later = (seconds: number) => void (now = new Date(now.getTime() + seconds * SECOND));
/** The job's work, run by the test (the app's workers are off until the end-to-end test). */
let sending: VerifactuSending;

const I = () => `${W(c.ws.id)}/invoices`;
async function issue(who: Therapist, body: object): Promise<Invoice> {
  const draft = await t.post(I(), body, { token: who.accessToken });
  expect(draft.statusCode, draft.body).toBe(201);
  const res = await t.post(`${I()}/${json<Invoice>(draft).id}/issue`, undefined, { token: who.accessToken });
  expect(res.statusCode, res.body).toBe(200);
  return json<Invoice>(res);
}
const tereInvoice = () => issue(c.tere, { patientId: c.ana, lines: [{ description: 'Sesión', unitPriceCents: 6000 }] });
async function status(invoice: Invoice): Promise<VerifactuStatus> {
  const res = await t.get(`${I()}/${invoice.id}/verifactu-status`, { token: c.owner.accessToken });
  expect(res.statusCode, res.body).toBe(200);
  return json<VerifactuStatus>(res);
}
const record = async (invoice: Invoice) => (await status(invoice)).records[0]!;

beforeAll(async () => {
  if (skipTls) return;
  certs = makeTestCertificates();
  aeat = await new AeatEndpoint(certs).start();
  const tls = { pfx: certs.client.pfx, passphrase: certs.client.passphrase, ca: certs.ca };
  t = await createTestApp({ runJobs: false, verifactuAeat: { url: aeat.url, tls } }, { clock });
  sending = new VerifactuSending({
    db: t.app.services.database.db,
    jobs: t.app.services.jobs,
    sender: new AeatSoapSender({ url: aeat.url, tls }),
    now: clock,
  });
  c = await clinic(t, 'aeat');
  expect(
    (
      await t.put(
        '/api/v1/me/billing',
        { fullName: 'Teresa Terapeuta', taxId: THERAPIST_NIF, city: 'Madrid' },
        { token: c.tere.accessToken },
      )
    ).statusCode,
  ).toBe(200);
  const billing = {
    fullName: 'Clínica Envíos SL',
    taxId: CLINIC_CIF,
    line1: 'Calle Alcalá 1',
    city: 'Madrid',
    zipCode: '28009',
    country: 'España',
  };
  expect((await t.put(`${W(c.ws.id)}/billing-info`, billing, { token: c.owner.accessToken })).statusCode).toBe(200);
}, 90_000);
afterAll(async () => {
  await t?.close();
  await aeat?.stop();
});

describe.skipIf(skipTls)('sending VERI*FACTU records to the AEAT', () => {
  it('queues a job when an invoice is issued; until it runs the record is pending', async () => {
    const inv = await tereInvoice();
    // Queued by the listener of `invoice.issued`, after the commit: not necessarily before the answer.
    await expect.poll(() => t.app.services.jobs.stateOf(VERIFACTU_SEND_QUEUE, `invoice:${inv.id}`)).toBe('created');
    expect(await status(inv)).toEqual({
      sending: true,
      records: [expect.objectContaining({ kind: 'registration', number: inv.number, state: 'pending', attempts: 0, csv: null })],
    });
    expect(await sending.work(THERAPIST_NIF)).toMatchObject({ outcome: 'answered', sent: 1 });
    expect(await record(inv)).toMatchObject({
      state: 'accepted',
      csv: expect.stringMatching(/^A-PRUEBA/),
      attempts: 1,
      errorCode: null,
      nextAttemptAt: null,
    });
    expect(aeat.problems).toEqual([]);
  });

  it('honours TiempoEsperaEnvio: the next submission of that issuer waits, in a job queued for then', async () => {
    const inv = await tereInvoice();
    const sent = aeat.received.length;
    const waiting = await sending.work(THERAPIST_NIF);
    expect(waiting).toEqual({ outcome: 'waiting', until: new Date(now.getTime() + 60 * SECOND) });
    expect(aeat.received.length).toBe(sent);
    const until = (waiting as { until: Date }).until;
    expect(await t.app.services.jobs.stateOf(VERIFACTU_SEND_QUEUE, `${THERAPIST_NIF}@${until.toISOString()}`)).toBe('created');
    later(59);
    expect(await sending.work(THERAPIST_NIF)).toMatchObject({ outcome: 'waiting' });
    later(1);
    expect(await sending.work(THERAPIST_NIF)).toMatchObject({ outcome: 'answered', sent: 1 });
    expect(await record(inv)).toMatchObject({ state: 'accepted' });
    // The first invoice, accepted before, was not in it: an accepted record is never sent again.
    expect(aeat.received.at(-1)!.records.map((r) => r.number)).toEqual([inv.number]);
  });

  it('partially correct: the rejected record stays rejected, with the AEAT’s code and words, and is not resent', async () => {
    later(60);
    const [a, b] = [await tereInvoice(), await tereInvoice()];
    aeat.reply({ kind: 'reject', numbers: [b.number!], code: '1239', description: 'Error en el bloque de Destinatario.' });
    expect(await sending.work(THERAPIST_NIF)).toMatchObject({ outcome: 'answered', sent: 2 });
    expect(await record(a)).toMatchObject({ state: 'accepted', csv: expect.any(String) });
    expect(await record(b)).toMatchObject({
      state: 'rejected',
      errorCode: '1239',
      errorDescription: 'Error en el bloque de Destinatario.',
      attempts: 1,
    });
    later(60);
    const sent = aeat.received.length;
    expect(await sending.work(THERAPIST_NIF)).toEqual({ outcome: 'nothing' });
    expect(aeat.received.length).toBe(sent);
    expect(aeat.problems).toEqual([]);
  });

  it('a SOAP fault, then a 503, are retried with a growing backoff; then accepted', async () => {
    later(60);
    const inv = await tereInvoice();
    aeat.reply({ kind: 'fault' }, { kind: 'status', status: 503 });
    const first = await sending.work(THERAPIST_NIF);
    expect(first).toEqual({ outcome: 'failed', sent: 1, notBefore: new Date(now.getTime() + 60 * SECOND) });
    expect(await record(inv)).toMatchObject({
      state: 'pending',
      attempts: 1,
      errorCode: 'verifactu_fault',
      errorDescription: expect.stringMatching(/^La AEAT devolvió un error en el envío: se volverá a intentar\. \(env:Server Codigo\[-1\]/),
      nextAttemptAt: new Date(now.getTime() + 60 * SECOND).toISOString(),
    });
    expect(await sending.work(THERAPIST_NIF)).toMatchObject({ outcome: 'waiting' });
    later(60);
    expect(await sending.work(THERAPIST_NIF)).toEqual({ outcome: 'failed', sent: 1, notBefore: new Date(now.getTime() + 120 * SECOND) });
    expect(await record(inv)).toMatchObject({ state: 'pending', attempts: 2, errorCode: 'verifactu_http' });
    later(120);
    expect(await sending.work(THERAPIST_NIF)).toMatchObject({ outcome: 'answered', sent: 1 });
    expect(await record(inv)).toMatchObject({ state: 'accepted', attempts: 3, errorCode: null, errorDescription: null });
    expect(aeat.problems).toEqual([]);
  });

  it('an answer lost with the connection: sent again, the AEAT’s duplicate counts as accepted; the state survives a restart', async () => {
    later(60);
    const inv = await tereInvoice();
    aeat.reply({ kind: 'drop' });
    expect(await sending.work(THERAPIST_NIF)).toMatchObject({ outcome: 'failed' });
    // A new process (no memory of the attempt) picks up where the database says.
    const restarted = new VerifactuSending({
      db: t.app.services.database.db,
      jobs: t.app.services.jobs,
      sender: new AeatSoapSender({ url: aeat.url, tls: { pfx: certs.client.pfx, passphrase: certs.client.passphrase } }),
      now: clock,
    });
    later(60);
    expect(await restarted.work(THERAPIST_NIF)).toMatchObject({ outcome: 'answered', sent: 1 });
    expect(await record(inv)).toMatchObject({ state: 'accepted', errorCode: '3000', attempts: 2 });
    expect(aeat.problems).toEqual([]);
  });

  it('two processes at once: one submission (the lease), the other waits for it', async () => {
    later(600);
    const inv = await tereInvoice();
    const other = new VerifactuSending({
      db: t.app.services.database.db,
      jobs: t.app.services.jobs,
      sender: new AeatSoapSender({ url: aeat.url, tls: { pfx: certs.client.pfx, passphrase: certs.client.passphrase } }),
      now: clock,
    });
    const sent = aeat.received.length;
    const outcomes = (await Promise.all([sending.work(THERAPIST_NIF), other.work(THERAPIST_NIF)])).map((r) => r.outcome).sort();
    expect(outcomes).toEqual(['answered', 'waiting']);
    expect(aeat.received.length).toBe(sent + 1);
    expect(await record(inv)).toMatchObject({ state: 'accepted', attempts: 1 });
  });

  it('end to end: two invoices issued through the API, the queued jobs run, both accepted with one CSV', async () => {
    const issueClinic = () =>
      issue(c.owner, { therapistId: c.tomas.userId, patientId: c.bruno, lines: [{ description: 'Sesión', unitPriceCents: 5555 }] });
    const [a, b] = [await issueClinic(), await issueClinic()];
    t.app.services.jobs.startWorkers();
    const deadline = Date.now() + 30_000;
    let states: string[] = [];
    while (Date.now() < deadline) {
      states = [(await record(a)).state, (await record(b)).state];
      if (states.every((s) => s !== 'pending')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(states).toEqual(['accepted', 'accepted']);
    const [ra, rb] = [await record(a), await record(b)];
    expect(ra.csv).toMatch(/^A-PRUEBA/);
    expect(rb.csv).toBe(ra.csv);
    expect(aeat.received.at(-1)).toMatchObject({
      issuerTaxId: CLINIC_CIF,
      records: [expect.objectContaining({ number: a.number }), expect.objectContaining({ number: b.number })],
    });
    expect(aeat.problems).toEqual([]);
  });

  it('a draft has no record; a member who cannot read the invoice gets nothing', async () => {
    const draft = json<Invoice>(
      await t.post(I(), { patientId: c.ana, lines: [{ description: 'Sesión', unitPriceCents: 6000 }] }, { token: c.tere.accessToken }),
    );
    expect(await status(draft)).toEqual({ sending: true, records: [] });
    const other = await t.get(`${I()}/${draft.id}/verifactu-status`, { token: c.tomas.accessToken });
    expect(other.statusCode).toBeGreaterThanOrEqual(403);
  });
});
