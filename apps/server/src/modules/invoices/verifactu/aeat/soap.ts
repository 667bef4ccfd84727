import { fromAeatDate } from '../format';
import type { VerifactuRecord } from '../types';
import { parseTree, type Element } from '../xml-parse';

/**
 * The SOAP 1.1 layer of the AEAT's VERI*FACTU web service (SistemaFacturacion.wsdl, operation
 * RegFactuSistemaFacturacion, document/literal): the request envelope around the document that
 * buildRegFactuXml writes, and the reading of its answer (RespuestaSuministro.xsd) or of a SOAP fault.
 */
export const SOAP_ENV_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
export const RESPUESTA_SUMINISTRO_NS =
  'https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws/RespuestaSuministro.xsd';

/** Wraps a RegFactuSistemaFacturacion document (with its own namespace declarations) in a SOAP 1.1 envelope. */
export function soapEnvelope(regFactuXml: string): string {
  const body = regFactuXml.replace(/^<\?xml[^>]*\?>\s*/, '');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<soapenv:Envelope xmlns:soapenv="${SOAP_ENV_NS}">\n<soapenv:Header/>\n<soapenv:Body>\n${body}</soapenv:Body>\n</soapenv:Envelope>\n`;
}

/** The document inside a request envelope's Body, as a stand-alone XML document (for the test endpoint). */
export function bodyOfEnvelope(envelope: string): string {
  const m = /<(?:[\w.-]+:)?Body(?:\s[^>]*)?>([\s\S]*)<\/(?:[\w.-]+:)?Body>/.exec(envelope);
  if (!m) throw new Error('No SOAP Body');
  return `<?xml version="1.0" encoding="UTF-8"?>\n${m[1]!.trim()}\n`;
}

export type EstadoEnvio = 'Correcto' | 'ParcialmenteCorrecto' | 'Incorrecto';
export type EstadoRegistro = 'Correcto' | 'AceptadoConErrores' | 'Incorrecto';

/** One RespuestaLinea: the AEAT's verdict on one record of the submission. */
export type ResponseLine = {
  issuerTaxId: string;
  number: string;
  /** YYYY-MM-DD */
  issueDate: string;
  operation: 'Alta' | 'Anulacion';
  state: EstadoRegistro;
  errorCode: string | null;
  errorDescription: string | null;
  /** Code 3000: the record was already registered; its state there (Correcta, AceptadaConErrores, Anulada). */
  duplicateState: string | null;
};

export type AeatAnswer =
  | { kind: 'response'; status: EstadoEnvio; csv: string | null; waitSeconds: number; lines: ResponseLine[] }
  | { kind: 'fault'; code: string; message: string };

const find = (e: Element | undefined, name: string) => e?.children.find((c) => c.name === name);
const textOf = (e: Element | undefined, name: string) => find(e, name)?.text.trim() || null;
function need(e: Element, name: string): string {
  const v = textOf(e, name);
  if (v === null) throw new Error(`Missing ${name} in ${e.name}`);
  return v;
}
function oneOf<T extends string>(value: string, allowed: readonly T[], what: string): T {
  if (!(allowed as readonly string[]).includes(value)) throw new Error(`Unknown ${what} "${value}"`);
  return value as T;
}

/** Reads an answer of the service: a RespuestaRegFactuSistemaFacturacion or a SOAP fault. Throws on anything else. */
export function parseAeatAnswer(xml: string): AeatAnswer {
  const doc = parseTree(xml);
  const envelope = doc.children.find((c) => c.name === 'Envelope');
  const body = find(envelope, 'Body');
  if (!body) throw new Error('Not a SOAP envelope');
  const fault = find(body, 'Fault');
  if (fault) return { kind: 'fault', code: textOf(fault, 'faultcode') ?? '', message: textOf(fault, 'faultstring') ?? '' };
  const answer = find(body, 'RespuestaRegFactuSistemaFacturacion');
  if (!answer) throw new Error('No RespuestaRegFactuSistemaFacturacion in the SOAP Body');
  const wait = need(answer, 'TiempoEsperaEnvio');
  if (!/^\d{1,6}$/.test(wait)) throw new Error(`TiempoEsperaEnvio is not a number of seconds: "${wait}"`);
  return {
    kind: 'response',
    status: oneOf(need(answer, 'EstadoEnvio'), ['Correcto', 'ParcialmenteCorrecto', 'Incorrecto'] as const, 'EstadoEnvio'),
    csv: textOf(answer, 'CSV'),
    waitSeconds: Number(wait),
    lines: answer.children.filter((c) => c.name === 'RespuestaLinea').map(responseLine),
  };
}

function responseLine(line: Element): ResponseLine {
  const id = find(line, 'IDFactura');
  if (!id) throw new Error('RespuestaLinea without IDFactura');
  // IDFacturaExpedidaType: the ids of a cancellation carry no suffix in the answer, but accept either.
  const pick = (name: string) => textOf(id, name) ?? textOf(id, `${name}Anulada`);
  const [issuerTaxId, number, date] = [pick('IDEmisorFactura'), pick('NumSerieFactura'), pick('FechaExpedicionFactura')];
  if (!issuerTaxId || !number || !date) throw new Error('Incomplete IDFactura in RespuestaLinea');
  const duplicate = find(line, 'RegistroDuplicado');
  return {
    issuerTaxId,
    number,
    issueDate: fromAeatDate(date),
    operation: oneOf(textOf(find(line, 'Operacion'), 'TipoOperacion') ?? 'Alta', ['Alta', 'Anulacion'] as const, 'TipoOperacion'),
    state: oneOf(need(line, 'EstadoRegistro'), ['Correcto', 'AceptadoConErrores', 'Incorrecto'] as const, 'EstadoRegistro'),
    errorCode: textOf(line, 'CodigoErrorRegistro'),
    errorDescription: textOf(line, 'DescripcionErrorRegistro'),
    duplicateState: textOf(duplicate, 'EstadoRegistroDuplicado'),
  };
}

/** The outcome of one record of a submission. */
export type RecordOutcome =
  | { state: 'accepted' | 'accepted_with_errors' | 'rejected'; errorCode: string | null; errorDescription: string | null }
  /** The answer said nothing about it: it stays pending and goes again. */
  | { state: 'pending'; errorCode: 'verifactu_no_answer'; errorDescription: string | null };

/** AEAT code 3000: "Registro de facturación duplicado" (it was registered by an earlier submission). */
export const DUPLICATE_RECORD = '3000';

/**
 * Per record, in the order sent: its line of the answer (matched by operation and IDFactura). A
 * duplicate of a record the AEAT already holds as correct (a retry after an answer that was lost)
 * counts as accepted: it is there, and must not be sent again.
 */
export function recordOutcomes(records: readonly VerifactuRecord[], lines: readonly ResponseLine[]): RecordOutcome[] {
  const byKey = new Map<string, ResponseLine[]>();
  const keyOf = (op: string, nif: string, number: string, date: string) => `${op}|${nif.toUpperCase()}|${number}|${date}`;
  for (const l of lines) {
    const k = keyOf(l.operation, l.issuerTaxId, l.number, l.issueDate);
    byKey.set(k, [...(byKey.get(k) ?? []), l]);
  }
  return records.map((r) => {
    const op = r.kind === 'registration' ? 'Alta' : 'Anulacion';
    const line = byKey.get(keyOf(op, r.invoice.issuerTaxId, r.invoice.number.trim(), r.invoice.issueDate))?.shift();
    if (!line) return { state: 'pending', errorCode: 'verifactu_no_answer', errorDescription: null };
    const error = { errorCode: line.errorCode, errorDescription: line.errorDescription };
    if (line.state === 'Correcto') return { state: 'accepted', ...error };
    if (line.state === 'AceptadoConErrores') return { state: 'accepted_with_errors', ...error };
    if (line.errorCode === DUPLICATE_RECORD && line.duplicateState === 'Correcta') return { state: 'accepted', ...error };
    if (line.errorCode === DUPLICATE_RECORD && line.duplicateState === 'AceptadaConErrores')
      return { state: 'accepted_with_errors', ...error };
    return { state: 'rejected', ...error };
  });
}
