import { request as httpsRequest, type RequestOptions } from 'node:https';
import { buildRegFactuXml } from '../xml';
import type { SoftwareInfo, VerifactuRecord } from '../types';
import { parseAeatAnswer, recordOutcomes, soapEnvelope, type EstadoEnvio, type RecordOutcome } from './soap';

/** At most 1,000 records in one submission (RegistroFactura maxOccurs), all of one issuer. */
export const MAX_RECORDS_PER_SUBMISSION = 1000;

export type SubmissionBatch = {
  /** Cabecera/ObligadoEmision: the issuer whose records these are. */
  issuer: { name: string; taxId: string };
  software: SoftwareInfo;
  /** 1–1,000 records of that issuer, in chain order. */
  records: VerifactuRecord[];
};

export type SubmissionResult =
  /** The AEAT answered: one outcome per record, in the order sent; wait `waitSeconds` before the next submission. */
  | { kind: 'answered'; status: EstadoEnvio; csv: string | null; waitSeconds: number; outcomes: RecordOutcome[] }
  /** Nothing was decided (network, HTTP error, SOAP fault, unreadable answer): every record goes again later. */
  | { kind: 'failed'; reason: 'verifactu_network' | 'verifactu_http' | 'verifactu_fault' | 'verifactu_malformed'; detail: string };

/** Sends a batch of one issuer's records to the AEAT and tells what became of each. Never throws for a failed send. */
export interface VerifactuSender {
  send(batch: SubmissionBatch): Promise<SubmissionResult>;
}

/** The client certificate (mutual TLS) the AEAT identifies the sender by, and an extra CA to trust if any. */
export type AeatTls = { pfx?: Buffer; passphrase?: string; cert?: Buffer; key?: Buffer; ca?: Buffer };

export type AeatSenderOptions = {
  /** The VerifactuSOAP endpoint (test or production, see README). */
  url: string;
  tls: AeatTls;
  /** One request's time limit (default 60 s): kept below the job's expiry and the sender's lease. */
  timeoutMs?: number;
};

/** The AEAT's own endpoints of the VERI*FACTU service. */
export const AEAT_ENDPOINTS = {
  test: 'https://prewww1.aeat.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP',
  production: 'https://www1.agenciatributaria.gob.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP',
} as const;

const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** The real sender: SOAP 1.1 over HTTPS with a client certificate, to the AEAT's VerifactuSOAP service. */
export class AeatSoapSender implements VerifactuSender {
  constructor(private readonly opts: AeatSenderOptions) {}

  async send(batch: SubmissionBatch): Promise<SubmissionResult> {
    if (batch.records.length < 1 || batch.records.length > MAX_RECORDS_PER_SUBMISSION)
      throw new RangeError(`A submission holds 1–${MAX_RECORDS_PER_SUBMISSION} records`);
    if (batch.records.some((r) => r.invoice.issuerTaxId !== batch.issuer.taxId))
      throw new RangeError('A submission holds the records of one issuer');
    const envelope = soapEnvelope(buildRegFactuXml(batch));
    let answer: { status: number; body: string };
    try {
      answer = await this.post(envelope);
    } catch (err) {
      return { kind: 'failed', reason: 'verifactu_network', detail: (err as Error).message };
    }
    let parsed;
    try {
      parsed = parseAeatAnswer(answer.body);
    } catch (err) {
      // An HTTP error page (503 from a gateway…) is not XML: the status says more than the parser.
      if (answer.status !== 200) return { kind: 'failed', reason: 'verifactu_http', detail: `HTTP ${answer.status}` };
      return { kind: 'failed', reason: 'verifactu_malformed', detail: (err as Error).message };
    }
    if (parsed.kind === 'fault') return { kind: 'failed', reason: 'verifactu_fault', detail: `${parsed.code} ${parsed.message}`.trim() };
    if (answer.status !== 200) return { kind: 'failed', reason: 'verifactu_http', detail: `HTTP ${answer.status}` };
    return {
      kind: 'answered',
      status: parsed.status,
      csv: parsed.csv,
      waitSeconds: parsed.waitSeconds,
      outcomes: recordOutcomes(batch.records, parsed.lines),
    };
  }

  private post(envelope: string): Promise<{ status: number; body: string }> {
    const url = new URL(this.opts.url);
    const payload = Buffer.from(envelope, 'utf8');
    const { pfx, passphrase, cert, key, ca } = this.opts.tls;
    const options: RequestOptions = {
      method: 'POST',
      hostname: url.hostname,
      port: url.port || 443,
      path: `${url.pathname}${url.search}`,
      headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '""', 'content-length': payload.length, accept: 'text/xml' },
      pfx,
      passphrase,
      cert,
      key,
      ...(ca ? { ca } : {}),
      minVersion: 'TLSv1.2',
      // A fresh connection per submission (one a minute at most per issuer): no pooled socket outlives a certificate change.
      agent: false,
      timeout: this.opts.timeoutMs ?? 60_000,
    };
    return new Promise((resolve, reject) => {
      const req = httpsRequest(options, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_ANSWER_BYTES) req.destroy(new Error('answer too large'));
          else chunks.push(c);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`no answer within ${options.timeout} ms`)));
      req.on('error', reject);
      req.end(payload);
    });
  }
}
