import type { ChainLink, RegFactuInput, RegistrationRecord, SoftwareInfo, VerifactuRecord } from './types';
import { recordFingerprint } from './xml';

/** Test data for the VERI*FACTU tests: two therapists issuing invoices from one Diván installation. */

export const SOFTWARE: SoftwareInfo = {
  vendorName: 'Diván Software S.L.',
  vendorTaxId: 'B12345674',
  installationNumber: 'instalacion-0001',
};
export const ANA = { name: 'Ana Ruiz & Gómez <Psicología>', taxId: '89890001K' };
export const LUIS = { name: 'Luis Pérez Terapia', taxId: '12345678Z' };

type Unchained<T> = T extends VerifactuRecord ? Omit<T, 'previous' | 'fingerprint'> : never;

/** Links records as they are generated: each one points at the last record of its issuer. */
export function chainer(): (record: Unchained<VerifactuRecord>) => VerifactuRecord {
  const last = new Map<string, ChainLink>();
  return (record) => {
    const linked = { ...record, previous: last.get(record.invoice.issuerTaxId) ?? null } as VerifactuRecord;
    const fingerprint = recordFingerprint(linked);
    last.set(record.invoice.issuerTaxId, { ...record.invoice, fingerprint });
    return { ...linked, fingerprint };
  };
}

export function session(
  issuer: { name: string; taxId: string },
  number: string,
  issueDate: string,
  totalCents: number,
  generatedAt: string,
): Unchained<RegistrationRecord> {
  return {
    kind: 'registration',
    invoice: { issuerTaxId: issuer.taxId, number, issueDate },
    issuerName: issuer.name,
    invoiceType: 'F1',
    description: 'Sesión de psicoterapia\nindividual',
    recipients: [{ name: 'Marta López', taxId: '00000000T' }],
    lines: [{ kind: 'exempt', exemption: 'E1', baseCents: totalCents }],
    vatTotalCents: 0,
    totalCents,
    generatedAt,
  };
}

/** Eight records of two issuers, interleaved, with cancellations and rectifications. */
export function twoIssuerChain(): VerifactuRecord[] {
  const link = chainer();
  return [
    link(session(ANA, 'A-2025-0001', '2025-03-03', 6000, '2025-03-03T10:00:00+01:00')),
    link({
      ...session(LUIS, 'L/2025/1', '2025-03-03', 24140, '2025-03-03T10:05:00+01:00'),
      description: 'Taller de formación para empresas',
      recipients: [{ name: 'Acme GmbH', otherId: { countryCode: 'DE', idType: '02', id: 'DE123456789' } }],
      lines: [{ kind: 'taxed', ratePercent: 21, baseCents: 19950, vatCents: 4190 }],
      vatTotalCents: 4190,
    }),
    link({
      ...session(ANA, 'A-2025-0002', '2025-03-04', 18100, '2025-03-04T09:30:00+01:00'),
      lines: [
        { kind: 'exempt', exemption: 'E1', baseCents: 6000 },
        { kind: 'taxed', ratePercent: 21, baseCents: 10000, vatCents: 2100 },
      ],
      vatTotalCents: 2100,
      totalCents: 18100,
    }),
    link({
      kind: 'cancellation',
      invoice: { issuerTaxId: ANA.taxId, number: 'A-2025-0002', issueDate: '2025-03-04' },
      generatedAt: '2025-03-04T09:45:10+01:00',
    }),
    link({
      ...session(LUIS, 'L/2025/R1', '2025-03-05', 12100, '2025-03-05T12:00:00+01:00'),
      invoiceType: 'R1',
      rectification: {
        type: 'S',
        invoices: [{ issuerTaxId: LUIS.taxId, number: 'L/2025/1', issueDate: '2025-03-03' }],
        rectified: { baseCents: 19950, vatCents: 4190 },
      },
      description: 'Rectificación: importe del taller',
      recipients: [{ name: 'Acme GmbH', otherId: { countryCode: 'DE', idType: '02', id: 'DE123456789' } }],
      lines: [{ kind: 'taxed', ratePercent: 21, baseCents: 10000, vatCents: 2100 }],
      vatTotalCents: 2100,
    }),
    link({
      ...session(LUIS, 'L/2025/R2', '2025-03-06', -5000, '2025-03-06T08:00:00+01:00'),
      invoiceType: 'R4',
      rectification: { type: 'I', invoices: [{ issuerTaxId: LUIS.taxId, number: 'L/2025/R1', issueDate: '2025-03-05' }] },
      description: 'Descuento posterior',
      lines: [{ kind: 'exempt', exemption: 'E1', baseCents: -5000 }],
    }),
    link(session(ANA, 'A-2025-0003', '2025-03-30', 6000, '2025-03-31T03:00:00+02:00')),
    link({
      kind: 'cancellation',
      invoice: { issuerTaxId: LUIS.taxId, number: 'L/2025/R2', issueDate: '2025-03-06' },
      generatedAt: '2025-04-01T18:00:00+02:00',
    }),
  ];
}

/** All records in one document, under the first issuer's Cabecera (see the note in chain.test.ts). */
export function twoIssuerDocument(records = twoIssuerChain()): RegFactuInput {
  return { issuer: ANA, software: SOFTWARE, records };
}
