import type { CancellationHashValues, RegistrationHashValues } from './fingerprint';
import { fromAeatDate, parseAmount } from './format';
import type { ChainLink } from './types';

/**
 * Reads back a RegFactuSistemaFacturacion document: per record, the fields its fingerprint and its
 * chain link are made of. A small element-tree reader (no attributes, no DTD, no CDATA), enough for
 * the documents buildRegFactuXml writes and for hand-edited copies of them; any namespace prefix.
 */

export type Element = { name: string; children: Element[]; text: string };

export type ParsedRegistration = {
  kind: 'registration';
  issuerTaxId: string;
  number: string;
  /** YYYY-MM-DD */
  issueDate: string;
  invoiceType: string;
  vatTotalCents: number;
  totalCents: number;
  previous: ChainLink | null;
  generatedAt: string;
  fingerprint: string;
  /** The hashed fields exactly as written in the XML (amounts as text). */
  hashValues: RegistrationHashValues;
};

export type ParsedCancellation = {
  kind: 'cancellation';
  issuerTaxId: string;
  number: string;
  issueDate: string;
  previous: ChainLink | null;
  generatedAt: string;
  fingerprint: string;
  hashValues: CancellationHashValues;
};

export type ParsedRecord = ParsedRegistration | ParsedCancellation;

const TOKEN = /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[|<!|<(\/?)(?:[\w.-]+:)?([\w.-]+)(?:\s[^<>]*?)?(\/?)>|[^<]+|</g;

function decodeEntities(raw: string): string {
  return raw.replace(/&(#x[0-9a-fA-F]+|#\d+|lt|gt|amp|quot|apos);/g, (_, e: string) => {
    if (e.startsWith('#x')) return String.fromCodePoint(parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(parseInt(e.slice(1), 10));
    return ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" } as Record<string, string>)[e] ?? '';
  });
}

/** The element tree of a document (local names, prefixes dropped; attributes ignored). */
export function parseTree(xml: string): Element {
  const root: Element = { name: '#document', children: [], text: '' };
  const stack: Element[] = [root];
  for (const m of xml.matchAll(TOKEN)) {
    const [token, closing, name, selfClosing] = m;
    const top = stack[stack.length - 1]!;
    if (token.startsWith('<!--') || token.startsWith('<?')) continue;
    if (token === '<![CDATA[' || token === '<!') throw new Error('Unsupported XML construct (DTD or CDATA)');
    if (name === undefined) {
      if (token.includes('<')) throw new Error('Malformed XML');
      top.text += decodeEntities(token);
    } else if (closing) {
      if (top.name !== name || stack.length === 1) throw new Error(`Malformed XML: unexpected </${name}>`);
      stack.pop();
    } else {
      const child: Element = { name, children: [], text: '' };
      top.children.push(child);
      if (!selfClosing) stack.push(child);
    }
  }
  if (stack.length !== 1) throw new Error(`Malformed XML: <${stack[stack.length - 1]!.name}> is not closed`);
  return root;
}

const find = (e: Element, name: string) => e.children.find((c) => c.name === name);

function child(e: Element, ...path: string[]): Element {
  let at = e;
  for (const name of path) {
    const next = find(at, name);
    if (!next) throw new Error(`Missing ${path.join('/')} in ${e.name}`);
    at = next;
  }
  return at;
}

const value = (e: Element, ...path: string[]) => child(e, ...path).text.trim();

function previousLink(record: Element): ChainLink | null {
  const chain = child(record, 'Encadenamiento');
  const prev = find(chain, 'RegistroAnterior');
  if (!prev) {
    if (value(chain, 'PrimerRegistro') !== 'S') throw new Error('Encadenamiento needs PrimerRegistro S or RegistroAnterior');
    return null;
  }
  return {
    issuerTaxId: value(prev, 'IDEmisorFactura'),
    number: value(prev, 'NumSerieFactura'),
    issueDate: fromAeatDate(value(prev, 'FechaExpedicionFactura')),
    fingerprint: value(prev, 'Huella'),
  };
}

function registration(e: Element): ParsedRegistration {
  const previous = previousLink(e);
  const hashValues: RegistrationHashValues = {
    IDEmisorFactura: value(e, 'IDFactura', 'IDEmisorFactura'),
    NumSerieFactura: value(e, 'IDFactura', 'NumSerieFactura'),
    FechaExpedicionFactura: value(e, 'IDFactura', 'FechaExpedicionFactura'),
    TipoFactura: value(e, 'TipoFactura'),
    CuotaTotal: value(e, 'CuotaTotal'),
    ImporteTotal: value(e, 'ImporteTotal'),
    // The previous fingerprint as written in Encadenamiento/RegistroAnterior/Huella.
    Huella: previous?.fingerprint ?? '',
    FechaHoraHusoGenRegistro: value(e, 'FechaHoraHusoGenRegistro'),
  };
  return {
    kind: 'registration',
    issuerTaxId: hashValues.IDEmisorFactura,
    number: hashValues.NumSerieFactura,
    issueDate: fromAeatDate(hashValues.FechaExpedicionFactura),
    invoiceType: hashValues.TipoFactura,
    vatTotalCents: parseAmount(hashValues.CuotaTotal),
    totalCents: parseAmount(hashValues.ImporteTotal),
    previous,
    generatedAt: hashValues.FechaHoraHusoGenRegistro,
    fingerprint: value(e, 'Huella'),
    hashValues,
  };
}

function cancellation(e: Element): ParsedCancellation {
  const previous = previousLink(e);
  const hashValues: CancellationHashValues = {
    IDEmisorFacturaAnulada: value(e, 'IDFactura', 'IDEmisorFacturaAnulada'),
    NumSerieFacturaAnulada: value(e, 'IDFactura', 'NumSerieFacturaAnulada'),
    FechaExpedicionFacturaAnulada: value(e, 'IDFactura', 'FechaExpedicionFacturaAnulada'),
    Huella: previous?.fingerprint ?? '',
    FechaHoraHusoGenRegistro: value(e, 'FechaHoraHusoGenRegistro'),
  };
  return {
    kind: 'cancellation',
    issuerTaxId: hashValues.IDEmisorFacturaAnulada,
    number: hashValues.NumSerieFacturaAnulada,
    issueDate: fromAeatDate(hashValues.FechaExpedicionFacturaAnulada),
    previous,
    generatedAt: hashValues.FechaHoraHusoGenRegistro,
    fingerprint: value(e, 'Huella'),
    hashValues,
  };
}

/** The records of a RegFactuSistemaFacturacion document, in document order. Throws on malformed input. */
export function parseRegFactuXml(xml: string): ParsedRecord[] {
  const doc = parseTree(xml);
  const root = doc.children.length === 1 ? doc.children[0] : undefined;
  if (!root || root.name !== 'RegFactuSistemaFacturacion') throw new Error('Not a RegFactuSistemaFacturacion document');
  return root.children
    .filter((c) => c.name === 'RegistroFactura')
    .map((rf) => {
      const alta = find(rf, 'RegistroAlta');
      if (alta) return registration(alta);
      const baja = find(rf, 'RegistroAnulacion');
      if (baja) return cancellation(baja);
      throw new Error('RegistroFactura holds neither RegistroAlta nor RegistroAnulacion');
    });
}
