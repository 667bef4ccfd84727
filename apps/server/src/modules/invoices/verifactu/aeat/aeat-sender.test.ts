// Issue 11: the AEAT's VERI*FACTU SOAP service, spoken to a local HTTPS endpoint that requires a client
// certificate, validates each request against the AEAT's XSD, recomputes every fingerprint and its chain,
// and answers in the AEAT's format.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../platform/config';
import type { Db } from '../../../../platform/db/database';
import type { Jobs } from '../../../../platform/jobs/jobs';
import { chainer, LUIS, session, SOFTWARE } from '../verifactu.testkit';
import type { VerifactuRecord } from '../types';
import { AeatEndpoint } from './aeat-endpoint.testkit';
import { AeatSoapSender, type AeatTls, type SubmissionBatch } from './sender';
import { parseAeatAnswer } from './soap';
import { makeTestCertificates, skipTls, type TestCertificates } from './test-certificates.testkit';
import { wireVerifactuSending } from './verifactu-sending.service';

let certs: TestCertificates;
let aeat: AeatEndpoint;
let series = 0;

/** `n` new records of one issuer, chained from its first. */
function records(n: number): VerifactuRecord[] {
  const link = chainer();
  series++;
  return Array.from({ length: n }, (_, i) =>
    link(session(LUIS, `L${series}/${i + 1}`, '2026-11-26', 6000 + i, `2026-11-26T10:0${i}:00+01:00`)),
  );
}
const batch = (recs: VerifactuRecord[]): SubmissionBatch => ({ issuer: LUIS, software: SOFTWARE, records: recs });
const sender = (tls: Partial<AeatTls> = {}) =>
  new AeatSoapSender({ url: aeat.url, tls: { pfx: certs.client.pfx, passphrase: certs.client.passphrase, ca: certs.ca, ...tls } });

beforeAll(async () => {
  if (skipTls) return;
  certs = makeTestCertificates();
  aeat = await new AeatEndpoint(certs).start();
});
afterAll(() => aeat?.stop());

describe.skipIf(skipTls)('AeatSoapSender', () => {
  it('sends a SOAP 1.1 request with the client certificate; all correct: the CSV and the wait', async () => {
    const sent = records(3);
    const result = await sender().send(batch(sent));
    expect(aeat.problems).toEqual([]);
    expect(result).toEqual({
      kind: 'answered',
      status: 'Correcto',
      csv: expect.stringMatching(/^A-PRUEBA\d{8}$/),
      waitSeconds: 60,
      outcomes: Array(3).fill({ state: 'accepted', errorCode: null, errorDescription: null }),
    });
    const got = aeat.received.at(-1)!;
    expect(got.records.map((r) => r.number)).toEqual(sent.map((r) => r.invoice.number));
    expect(got).toMatchObject({
      issuerTaxId: LUIS.taxId,
      clientSubject: '12345678Z PRUEBA',
      soapAction: '""',
      contentType: 'text/xml; charset=utf-8',
    });
  });

  it('with a PEM certificate and key: partially correct, one record rejected with the AEAT’s code and words', async () => {
    const sent = records(3);
    aeat.reply({
      kind: 'reject',
      numbers: [sent[1]!.invoice.number],
      code: '1100',
      description: 'Valor o tipo incorrecto del campo: DescripcionOperacion',
      wait: 30,
    });
    const result = await sender({ pfx: undefined, passphrase: undefined, cert: certs.client.cert, key: certs.client.key }).send(
      batch(sent),
    );
    expect(aeat.problems).toEqual([]);
    expect(result).toMatchObject({ kind: 'answered', status: 'ParcialmenteCorrecto', waitSeconds: 30 });
    expect(result.kind === 'answered' && result.outcomes).toEqual([
      { state: 'accepted', errorCode: null, errorDescription: null },
      { state: 'rejected', errorCode: '1100', errorDescription: 'Valor o tipo incorrecto del campo: DescripcionOperacion' },
      { state: 'accepted', errorCode: null, errorDescription: null },
    ]);
  });

  it('a SOAP fault, an HTTP 503 and a certificate the AEAT does not know are failures: nothing decided', async () => {
    const sent = records(1);
    aeat.reply({ kind: 'fault', message: 'Codigo[-1].Error interno' }, { kind: 'status', status: 503 });
    expect(await sender().send(batch(sent))).toEqual({
      kind: 'failed',
      reason: 'verifactu_fault',
      detail: 'env:Server Codigo[-1].Error interno',
    });
    expect(await sender().send(batch(sent))).toEqual({ kind: 'failed', reason: 'verifactu_http', detail: 'HTTP 503' });
    const before = aeat.received.length;
    expect(
      await sender({ pfx: undefined, passphrase: undefined, cert: certs.stranger.cert, key: certs.stranger.key }).send(batch(sent)),
    ).toMatchObject({ kind: 'failed', reason: 'verifactu_network' });
    // Nor is a server whose certificate is not trusted (a PKCS#12 file's own CA certificates are trusted, so PEM here).
    expect(
      await sender({ pfx: undefined, passphrase: undefined, cert: certs.client.cert, key: certs.client.key, ca: undefined }).send(
        batch(sent),
      ),
    ).toMatchObject({ kind: 'failed', reason: 'verifactu_network' });
    expect(aeat.received.length).toBe(before);
    expect(aeat.problems).toEqual([]);
  });

  it('an answer lost after the AEAT registered the records: sent again, the duplicate (3000) counts as accepted', async () => {
    const sent = records(2);
    aeat.reply({ kind: 'drop' });
    expect(await sender().send(batch(sent))).toMatchObject({ kind: 'failed', reason: 'verifactu_network' });
    const again = await sender().send(batch(sent));
    expect(again.kind === 'answered' && again.outcomes).toEqual(
      Array(2).fill({ state: 'accepted', errorCode: '3000', errorDescription: 'Registro de facturación duplicado.' }),
    );
    expect(aeat.problems).toEqual([]);
  });

  it('refuses a batch of more than one issuer or more than 1,000 records before sending', async () => {
    const other = chainer()(session({ name: 'Otra', taxId: '89890001K' }, 'X-1', '2026-11-26', 100, '2026-11-26T10:00:00+01:00'));
    await expect(sender().send(batch([...records(1), other]))).rejects.toThrow('one issuer');
    await expect(sender().send(batch([]))).rejects.toThrow('1–1000');
  });
});

describe('parseAeatAnswer', () => {
  it('reads a fault, refuses what is not an answer', () => {
    const env = (body: string) => `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>${body}</s:Body></s:Envelope>`;
    expect(
      parseAeatAnswer(
        env('<s:Fault><faultcode>s:Client</faultcode><faultstring>Codigo[4102].El XML no cumple el esquema</faultstring></s:Fault>'),
      ),
    ).toEqual({
      kind: 'fault',
      code: 's:Client',
      message: 'Codigo[4102].El XML no cumple el esquema',
    });
    expect(() => parseAeatAnswer('<html>Error</html>')).toThrow('Not a SOAP envelope');
    expect(() => parseAeatAnswer(env('<x:Otra xmlns:x="urn:x"/>'))).toThrow('RespuestaRegFactuSistemaFacturacion');
    expect(() =>
      parseAeatAnswer(
        env(
          '<r:RespuestaRegFactuSistemaFacturacion xmlns:r="urn:r"><r:TiempoEsperaEnvio>pronto</r:TiempoEsperaEnvio><r:EstadoEnvio>Correcto</r:EstadoEnvio></r:RespuestaRegFactuSistemaFacturacion>',
        ),
      ),
    ).toThrow('TiempoEsperaEnvio');
  });
});

describe.skipIf(skipTls)('configuration', () => {
  const env = (vars: Record<string, string>) => ({
    DATA_DIR: certs.client.caPath.replace(/\/ca\.crt$/, ''),
    APP_SECRET: 'x'.repeat(32),
    ...vars,
  });
  const URL_ = 'https://prewww1.aeat.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP';

  it('is off unless VERIFACTU_AEAT_URL is set: nothing defined, listened to or queued', () => {
    expect(loadConfig(env({})).verifactuAeat).toBeUndefined();
    const calls: string[] = [];
    const jobs = {
      define: () => calls.push('define'),
      sweep: () => calls.push('sweep'),
      send: () => calls.push('send'),
    } as unknown as Jobs;
    expect(wireVerifactuSending({ db: {} as Db, jobs, aeat: undefined })).toBeUndefined();
    expect(calls).toEqual([]);
  });

  it('reads and opens the certificate at start-up; a mistake stops it with one line naming the variable', () => {
    const on = loadConfig(
      env({
        VERIFACTU_AEAT_URL: URL_,
        VERIFACTU_AEAT_PFX: certs.client.pfxPath,
        VERIFACTU_AEAT_PASSPHRASE: certs.client.passphrase,
        VERIFACTU_AEAT_CA: certs.client.caPath,
      }),
    );
    expect(on.verifactuAeat).toEqual({
      url: URL_,
      tls: { pfx: certs.client.pfx, passphrase: certs.client.passphrase, ca: certs.ca, cert: undefined, key: undefined },
    });
    expect(() => loadConfig(env({ VERIFACTU_AEAT_URL: URL_ }))).toThrow(/^Invalid environment variable VERIFACTU_AEAT_PFX: required/);
    expect(() => loadConfig(env({ VERIFACTU_AEAT_PFX: certs.client.pfxPath }))).toThrow(/^Invalid environment variable VERIFACTU_AEAT_URL/);
    expect(() => loadConfig(env({ VERIFACTU_AEAT_URL: 'http://aeat.test/', VERIFACTU_AEAT_PFX: certs.client.pfxPath }))).toThrow(
      /^Invalid environment variable VERIFACTU_AEAT_URL: must be an https/,
    );
    expect(() => loadConfig(env({ VERIFACTU_AEAT_URL: URL_, VERIFACTU_AEAT_PFX: '/no/such.p12' }))).toThrow(
      'Invalid environment variable VERIFACTU_AEAT_PFX: cannot read /no/such.p12',
    );
    expect(() =>
      loadConfig(env({ VERIFACTU_AEAT_URL: URL_, VERIFACTU_AEAT_PFX: certs.client.pfxPath, VERIFACTU_AEAT_PASSPHRASE: 'otra' })),
    ).toThrow(/^Invalid environment variable VERIFACTU_AEAT_PFX: the certificate does not open/);
    expect(() => loadConfig(env({ VERIFACTU_AEAT_URL: URL_, VERIFACTU_AEAT_CERT: certs.client.caPath }))).toThrow(
      /^Invalid environment variable VERIFACTU_AEAT_KEY/,
    );
  });
});
