// Test helper: a local HTTPS endpoint that speaks the AEAT's VERI*FACTU SOAP protocol (mutual TLS).
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { toAeatDate } from '../format';
import { verifyChain } from '../chain';
import { parseRegFactuXml, parseTree, type ParsedRecord } from '../xml-parse';
import { skipXsd, validateAgainstXsd } from '../xsd.testkit';
import { SUMINISTRO_INFORMACION_NS } from '../xml';
import { bodyOfEnvelope, DUPLICATE_RECORD, RESPUESTA_SUMINISTRO_NS, SOAP_ENV_NS } from './soap';
import type { TestCertificates } from './test-certificates.testkit';

/** What the endpoint answers to the next submission (default: every record correct, wait 60 s). */
export type Reply =
  | { kind: 'ok'; wait?: number }
  /** These invoice numbers are refused (Incorrecto) with this error; the rest are correct. */
  | { kind: 'reject'; numbers: string[]; code: string; description: string; wait?: number }
  | { kind: 'fault'; message?: string }
  | { kind: 'status'; status: number }
  /** Registers the records, then drops the connection: the answer is lost. */
  | { kind: 'drop' };

export type Received = {
  records: ParsedRecord[];
  issuerTaxId: string;
  clientSubject: string;
  soapAction: string | undefined;
  contentType: string | undefined;
};

const key = (r: { kind: string; issuerTaxId: string; number: string; issueDate: string }) =>
  `${r.kind}|${r.issuerTaxId}|${r.number}|${r.issueDate}`;

/**
 * Validates each submission against the AEAT's XSD, recomputes every fingerprint and checks the
 * chain (each record's previous is the one before it, or a record received earlier), remembers
 * what it registered (a second copy is a duplicate, code 3000) and answers as the AEAT does.
 */
export class AeatEndpoint {
  readonly received: Received[] = [];
  /** What the endpoint found wrong in a request (it answered with a SOAP fault). Tests expect none. */
  readonly problems: string[] = [];
  private readonly replies: Reply[] = [];
  private readonly registered = new Map<string, 'Correcta' | 'AceptadaConErrores'>();
  private readonly seen = new Map<string, ParsedRecord>();
  private csvCount = 0;
  private server: Server | undefined;
  url = '';

  constructor(private readonly certs: TestCertificates) {}

  /** The answers to the next submissions, in order. */
  reply(...replies: Reply[]) {
    this.replies.push(...replies);
  }

  async start() {
    this.server = createServer(
      { key: this.certs.server.key, cert: this.certs.server.cert, ca: this.certs.ca, requestCert: true, rejectUnauthorized: true },
      (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const peer = (req.socket as TLSSocket).getPeerCertificate();
          const answer = this.answer(Buffer.concat(chunks).toString('utf8'), {
            subject: String(peer.subject?.CN ?? ''),
            soapAction: req.headers.soapaction as string | undefined,
            contentType: req.headers['content-type'],
          });
          if (answer === 'drop') return req.socket.destroy();
          res
            .writeHead(answer.status, { 'content-type': answer.status === 503 ? 'text/html' : 'text/xml; charset=utf-8' })
            .end(answer.body);
        });
      },
    );
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `https://127.0.0.1:${(this.server.address() as AddressInfo).port}/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP`;
    return this;
  }

  async stop() {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private answer(
    envelope: string,
    meta: { subject: string; soapAction: string | undefined; contentType: string | undefined },
  ): { status: number; body: string } | 'drop' {
    const reply = this.replies.shift() ?? { kind: 'ok' };
    if (reply.kind === 'status') return { status: reply.status, body: '<html><body>Servicio no disponible</body></html>' };
    let records: ParsedRecord[];
    let issuerTaxId: string;
    try {
      const doc = bodyOfEnvelope(envelope);
      if (!skipXsd) {
        const xsd = validateAgainstXsd(doc, `received-${this.received.length}.xml`);
        if (!xsd.ok) throw new Error(`XSD: ${xsd.output}`);
      }
      records = parseRegFactuXml(doc);
      issuerTaxId = headerNif(doc);
      this.checkChain(records, issuerTaxId);
    } catch (err) {
      this.problems.push((err as Error).message);
      return {
        status: 500,
        body: fault('env:Client', `Codigo[4102].El XML no cumple el esquema. ${(err as Error).message}`.slice(0, 500)),
      };
    }
    this.received.push({ records, issuerTaxId, clientSubject: meta.subject, soapAction: meta.soapAction, contentType: meta.contentType });
    for (const r of records) this.seen.set(r.fingerprint, r);
    if (reply.kind === 'fault') return { status: 500, body: fault('env:Server', reply.message ?? 'Codigo[-1].Error interno del servidor') };
    const rejected = new Set(reply.kind === 'reject' ? reply.numbers : []);
    const lines = records.map((r) => {
      const k = key(r);
      const before = this.registered.get(k);
      if (before)
        return line(r, 'Incorrecto', { code: DUPLICATE_RECORD, description: 'Registro de facturación duplicado.', duplicate: before });
      if (reply.kind === 'reject' && rejected.has(r.number))
        return line(r, 'Incorrecto', { code: reply.code, description: reply.description });
      this.registered.set(k, 'Correcta');
      return line(r, 'Correcto');
    });
    if (reply.kind === 'drop') return 'drop';
    const correct = lines.filter((l) => l.includes('>Correcto<')).length;
    const status = correct === records.length ? 'Correcto' : correct === 0 ? 'Incorrecto' : 'ParcialmenteCorrecto';
    const csv = status === 'Incorrecto' ? null : `A-PRUEBA${String(++this.csvCount).padStart(8, '0')}`;
    return { status: 200, body: response({ csv, issuerTaxId, wait: 'wait' in reply ? (reply.wait ?? 60) : 60, status, lines }) };
  }

  /** Each record chains on the one before it in this submission, the first on a record received before (or none). */
  private checkChain(records: ParsedRecord[], issuerTaxId: string) {
    if (!records.length || records.length > 1000) throw new Error(`${records.length} records`);
    if (records.some((r) => r.issuerTaxId !== issuerTaxId)) throw new Error('Records of another issuer than the Cabecera’s');
    const first = records[0]!;
    if (first.previous && !this.seen.has(first.previous.fingerprint)) throw new Error(`${first.number} chains on a record never received`);
    const broken = verifyChain(records, { anchors: first.previous ? { [issuerTaxId]: first.previous } : {} });
    if (broken !== null) throw new Error(`Chain broken at ${records[broken]!.number}`);
  }
}

function headerNif(doc: string): string {
  const root = parseTree(doc).children[0]!;
  const nif = root.children
    .find((c) => c.name === 'Cabecera')
    ?.children.find((c) => c.name === 'ObligadoEmision')
    ?.children.find((c) => c.name === 'NIF');
  if (!nif) throw new Error('No Cabecera/ObligadoEmision/NIF');
  return nif.text.trim();
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function line(r: ParsedRecord, state: string, error?: { code: string; description: string; duplicate?: string }): string {
  const op = r.kind === 'registration' ? 'Alta' : 'Anulacion';
  const id = `<tikR:IDFactura><tik:IDEmisorFactura>${r.issuerTaxId}</tik:IDEmisorFactura><tik:NumSerieFactura>${esc(r.number)}</tik:NumSerieFactura><tik:FechaExpedicionFactura>${toAeatDate(r.issueDate)}</tik:FechaExpedicionFactura></tikR:IDFactura>`;
  const err = error
    ? `<tikR:CodigoErrorRegistro>${error.code}</tikR:CodigoErrorRegistro><tikR:DescripcionErrorRegistro>${esc(error.description)}</tikR:DescripcionErrorRegistro>`
    : '';
  const dup = error?.duplicate
    ? `<tikR:RegistroDuplicado><tik:IdPeticionRegistroDuplicado>202611260001</tik:IdPeticionRegistroDuplicado><tik:EstadoRegistroDuplicado>${error.duplicate}</tik:EstadoRegistroDuplicado></tikR:RegistroDuplicado>`
    : '';
  return `<tikR:RespuestaLinea>${id}<tikR:Operacion><tik:TipoOperacion>${op}</tik:TipoOperacion></tikR:Operacion><tikR:EstadoRegistro>${state}</tikR:EstadoRegistro>${err}${dup}</tikR:RespuestaLinea>`;
}

function response(a: { csv: string | null; issuerTaxId: string; wait: number; status: string; lines: string[] }): string {
  const csv = a.csv
    ? `<tikR:CSV>${a.csv}</tikR:CSV><tikR:DatosPresentacion><tik:NIFPresentador>${a.issuerTaxId}</tik:NIFPresentador><tik:TimestampPresentacion>2026-11-26T10:00:00+01:00</tik:TimestampPresentacion></tikR:DatosPresentacion>`
    : '';
  return `<?xml version="1.0" encoding="UTF-8"?><env:Envelope xmlns:env="${SOAP_ENV_NS}"><env:Header/><env:Body Id="Body"><tikR:RespuestaRegFactuSistemaFacturacion xmlns:tikR="${RESPUESTA_SUMINISTRO_NS}" xmlns:tik="${SUMINISTRO_INFORMACION_NS}">${csv}<tikR:Cabecera><tik:ObligadoEmision><tik:NombreRazon>Emisor</tik:NombreRazon><tik:NIF>${a.issuerTaxId}</tik:NIF></tik:ObligadoEmision></tikR:Cabecera><tikR:TiempoEsperaEnvio>${a.wait}</tikR:TiempoEsperaEnvio><tikR:EstadoEnvio>${a.status}</tikR:EstadoEnvio>${a.lines.join('')}</tikR:RespuestaRegFactuSistemaFacturacion></env:Body></env:Envelope>`;
}

function fault(code: string, message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><env:Envelope xmlns:env="${SOAP_ENV_NS}"><env:Body><env:Fault><faultcode>${code}</faultcode><faultstring>${esc(message)}</faultstring></env:Fault></env:Body></env:Envelope>`;
}
