import { cancellationFingerprint, registrationFingerprint } from './fingerprint';
import { formatAmount, formatRate, toAeatDate } from './format';
import type {
  CancellationRecord,
  ChainLink,
  InvoiceRef,
  Recipient,
  RegFactuInput,
  RegistrationRecord,
  SoftwareInfo,
  TaxLine,
  VerifactuRecord,
} from './types';

/** Namespaces of the AEAT's schemas (tikeV1.0), bound to the prefixes the AEAT's examples use. */
export const SUMINISTRO_LR_NS =
  'https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws/SuministroLR.xsd';
export const SUMINISTRO_INFORMACION_NS =
  'https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws/SuministroInformacion.xsd';

const MAX_RECORDS = 1000; // RegistroFactura maxOccurs
const MAX_LINES = 12; // DetalleDesglose maxOccurs

// Characters XML 1.0 cannot carry at all (escaping does not help).
// eslint-disable-next-line no-control-regex
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

/** Escapes text content; refuses characters XML 1.0 cannot represent. */
export function escapeXml(text: string): string {
  if (NOT_XML_CHAR.test(text)) throw new RangeError('Text contains a character XML 1.0 cannot carry');
  // Line breaks and tabs become character references so that indentation never touches content.
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');
}

/** Checks a text value against its XSD length limits and returns it trimmed. */
function text(value: string, field: string, max: number, exact?: boolean): string {
  const v = value.trim();
  if (exact ? v.length !== max : v.length < 1 || v.length > max) {
    throw new RangeError(`${field} must be ${exact ? `exactly ${max}` : `1–${max}`} characters, got "${v}"`);
  }
  return v;
}

/** A tiny element writer: `el('sum1', 'NIF', '…')` or `el('sum1', 'IDFactura', [children])`. */
type XmlNode = string;
function el(prefix: 'sum' | 'sum1', name: string, content: string | XmlNode[]): XmlNode {
  const tag = `${prefix}:${name}`;
  if (typeof content === 'string') return `<${tag}>${escapeXml(content)}</${tag}>`;
  return `<${tag}>\n${indent(content.join('\n'))}\n</${tag}>`;
}
const s1 = (name: string, content: string | XmlNode[]) => el('sum1', name, content);
const indent = (block: string) => block.replace(/^/gm, '  ');

/** The fingerprint a record must carry, recomputed from its own fields. */
export function recordFingerprint(record: VerifactuRecord): string {
  const previousFingerprint = record.previous?.fingerprint ?? null;
  if (record.kind === 'cancellation') {
    return cancellationFingerprint({ ...record.invoice, previousFingerprint, generatedAt: record.generatedAt });
  }
  return registrationFingerprint({
    ...record.invoice,
    invoiceType: record.invoiceType,
    vatTotalCents: record.vatTotalCents,
    totalCents: record.totalCents,
    previousFingerprint,
    generatedAt: record.generatedAt,
  });
}

function invoiceIdFields(ref: InvoiceRef, suffix = ''): XmlNode[] {
  return [
    s1(`IDEmisorFactura${suffix}`, text(ref.issuerTaxId, 'NIF', 9, true)),
    s1(`NumSerieFactura${suffix}`, text(ref.number, 'NumSerieFactura', 60)),
    s1(`FechaExpedicionFactura${suffix}`, toAeatDate(ref.issueDate)),
  ];
}

function chaining(previous: ChainLink | null): XmlNode {
  if (!previous) return s1('Encadenamiento', [s1('PrimerRegistro', 'S')]);
  return s1('Encadenamiento', [
    s1('RegistroAnterior', [...invoiceIdFields(previous), s1('Huella', text(previous.fingerprint, 'Huella', 64, true))]),
  ]);
}

function software(sw: SoftwareInfo): XmlNode {
  return s1('SistemaInformatico', [
    s1('NombreRazon', text(sw.vendorName, 'SistemaInformatico/NombreRazon', 120)),
    s1('NIF', text(sw.vendorTaxId, 'SistemaInformatico/NIF', 9, true)),
    s1('NombreSistemaInformatico', text(sw.name ?? 'Diván', 'NombreSistemaInformatico', 30)),
    s1('IdSistemaInformatico', text(sw.id ?? '01', 'IdSistemaInformatico', 2)),
    s1('Version', text(sw.version ?? '1.0', 'Version', 50)),
    s1('NumeroInstalacion', text(sw.installationNumber, 'NumeroInstalacion', 100)),
    s1('TipoUsoPosibleSoloVerifactu', 'S'),
    s1('TipoUsoPosibleMultiOT', 'S'),
    s1('IndicadorMultiplesOT', 'N'),
  ]);
}

function recipient(r: Recipient): XmlNode {
  const name = s1('NombreRazon', text(r.name, 'Destinatario/NombreRazon', 120));
  if ('taxId' in r) return s1('IDDestinatario', [name, s1('NIF', text(r.taxId, 'Destinatario/NIF', 9, true))]);
  const { countryCode, idType, id } = r.otherId;
  const other = [
    ...(countryCode ? [s1('CodigoPais', text(countryCode, 'CodigoPais', 2, true))] : []),
    s1('IDType', idType),
    s1('ID', text(id, 'IDOtro/ID', 20)),
  ];
  return s1('IDDestinatario', [name, s1('IDOtro', other)]);
}

function taxLine(line: TaxLine): XmlNode {
  const head = [s1('Impuesto', '01'), s1('ClaveRegimen', '01')];
  if (line.kind === 'not_subject') {
    return s1('DetalleDesglose', [
      ...head,
      s1('CalificacionOperacion', line.code),
      s1('BaseImponibleOimporteNoSujeto', formatAmount(line.baseCents)),
    ]);
  }
  if (line.kind === 'exempt') {
    return s1('DetalleDesglose', [
      ...head,
      s1('OperacionExenta', line.exemption),
      s1('BaseImponibleOimporteNoSujeto', formatAmount(line.baseCents)),
    ]);
  }
  return s1('DetalleDesglose', [
    ...head,
    s1('CalificacionOperacion', 'S1'),
    s1('TipoImpositivo', formatRate(line.ratePercent)),
    s1('BaseImponibleOimporteNoSujeto', formatAmount(line.baseCents)),
    s1('CuotaRepercutida', formatAmount(line.vatCents)),
  ]);
}

function rectificationFields(r: RegistrationRecord): XmlNode[] {
  const rectifying = r.invoiceType.startsWith('R');
  if (!rectifying) {
    if (r.rectification) throw new RangeError(`${r.invoiceType} is not a rectifying invoice type; drop rectification`);
    return [];
  }
  const rect = r.rectification;
  if (!rect || rect.invoices.length === 0) throw new RangeError(`${r.invoiceType} needs the invoices it rectifies`);
  if (rect.type === 'S' && !rect.rectified) throw new RangeError('A rectification by substitution needs ImporteRectificacion');
  return [
    s1('TipoRectificativa', rect.type),
    s1(
      'FacturasRectificadas',
      rect.invoices.map((ref) => s1('IDFacturaRectificada', invoiceIdFields(ref))),
    ),
    ...(rect.rectified
      ? [
          s1('ImporteRectificacion', [
            s1('BaseRectificada', formatAmount(rect.rectified.baseCents)),
            s1('CuotaRectificada', formatAmount(rect.rectified.vatCents)),
          ]),
        ]
      : []),
  ];
}

function checkedFingerprint(record: VerifactuRecord): string {
  const computed = recordFingerprint(record);
  if (record.fingerprint !== undefined && record.fingerprint !== computed) {
    throw new Error(`Record ${record.invoice.issuerTaxId} ${record.invoice.number}: stored fingerprint does not match its fields`);
  }
  return computed;
}

function registration(r: RegistrationRecord, sw: SoftwareInfo): XmlNode {
  if (r.lines.length < 1 || r.lines.length > MAX_LINES) throw new RangeError(`A record needs 1–${MAX_LINES} tax lines`);
  const recipients = r.recipients ?? [];
  if (recipients.length > MAX_RECORDS) throw new RangeError(`At most ${MAX_RECORDS} recipients`);
  return s1('RegistroAlta', [
    s1('IDVersion', '1.0'),
    s1('IDFactura', invoiceIdFields(r.invoice)),
    s1('NombreRazonEmisor', text(r.issuerName, 'NombreRazonEmisor', 120)),
    s1('TipoFactura', r.invoiceType),
    ...rectificationFields(r),
    s1('DescripcionOperacion', text(r.description, 'DescripcionOperacion', 500)),
    ...(recipients.length ? [s1('Destinatarios', recipients.map(recipient))] : []),
    s1('Desglose', r.lines.map(taxLine)),
    s1('CuotaTotal', formatAmount(r.vatTotalCents)),
    s1('ImporteTotal', formatAmount(r.totalCents)),
    chaining(r.previous),
    software(sw),
    s1('FechaHoraHusoGenRegistro', r.generatedAt.trim()),
    s1('TipoHuella', '01'),
    s1('Huella', checkedFingerprint(r)),
  ]);
}

function cancellation(r: CancellationRecord, sw: SoftwareInfo): XmlNode {
  return s1('RegistroAnulacion', [
    s1('IDVersion', '1.0'),
    s1('IDFactura', invoiceIdFields(r.invoice, 'Anulada')),
    chaining(r.previous),
    software(sw),
    s1('FechaHoraHusoGenRegistro', r.generatedAt.trim()),
    s1('TipoHuella', '01'),
    s1('Huella', checkedFingerprint(r)),
  ]);
}

/**
 * A `RegFactuSistemaFacturacion` document (SuministroLR.xsd) with one RegistroFactura per record,
 * in the given order. Each record's Huella is recomputed from its fields, so the XML cannot carry
 * a fingerprint that disagrees with its content.
 */
export function buildRegFactuXml(input: RegFactuInput): string {
  const { records } = input;
  if (records.length < 1 || records.length > MAX_RECORDS) throw new RangeError(`A document holds 1–${MAX_RECORDS} records`);
  const header = el('sum', 'Cabecera', [
    s1('ObligadoEmision', [
      s1('NombreRazon', text(input.issuer.name, 'ObligadoEmision/NombreRazon', 120)),
      s1('NIF', text(input.issuer.taxId, 'ObligadoEmision/NIF', 9, true)),
    ]),
  ]);
  const body = records.map((r) =>
    el('sum', 'RegistroFactura', [r.kind === 'registration' ? registration(r, input.software) : cancellation(r, input.software)]),
  );
  const root = `<sum:RegFactuSistemaFacturacion xmlns:sum="${SUMINISTRO_LR_NS}" xmlns:sum1="${SUMINISTRO_INFORMACION_NS}">`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${root}\n${indent([header, ...body].join('\n'))}\n</sum:RegFactuSistemaFacturacion>\n`;
}
