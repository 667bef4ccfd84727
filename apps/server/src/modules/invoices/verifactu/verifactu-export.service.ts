import { DEFAULT_TIME_ZONE, euVatIdCountry, normalizeTaxId, todayIn, type VatExemption, type verifactuExportQuery } from '@divan/core';
import type { z } from 'zod';
import type { Db } from '../../../platform/db/database';
import { DEV_VERIFACTU_PRODUCER, type VerifactuProducerConfig } from '../../../platform/verifactu-producer';
import { AppError } from '../../../platform/errors';
import type { Caller } from '../../../platform/auth/caller';
import { mayAct } from '../invoice-access';
import type { VerifactuRecordRow } from '../invoices.tables';
import type { BillingProfiles } from '../settings/billing-profiles.service';
import type { WorkspacesService } from '../../workspaces/workspaces.service';
import { verifactuRecordsRepository } from './verifactu-records.repository';
import type { CancellationDetail } from '../issuing/invoice-voiding.service';
import { buildRegFactuXml, type CancellationRecord, type RegistrationRecord, type SoftwareInfo, type TaxLine } from '.';

/** One AEAT submission holds at most 1,000 records. */
export const VERIFACTU_EXPORT_MAX = 1000;

/** What the XML says of the software that produced the records (SistemaInformatico): the configured producer and installation. */
export function softwareOf(producer: VerifactuProducerConfig = DEV_VERIFACTU_PRODUCER): SoftwareInfo {
  return {
    vendorName: producer.name,
    vendorTaxId: producer.taxId,
    name: 'Diván',
    id: producer.systemId,
    version: producer.version,
    installationNumber: producer.installationNumber,
  };
}

type Detail = {
  previous: { issuerTaxId: string; number: string; issueDate: string } | null;
  /** `countryCode`: set for a buyer outside Spain (ISO alpha-2), whose id is not a NIF. */
  buyer: { name: string; taxId: string | null; countryCode?: string | null };
  lines: { vatRate: number; exemption: VatExemption | null; base: number; vat: number }[];
  rectifies: { number: string; issueDate: string; method: 'difference' | 'substitution'; base: number; vat: number } | null;
  description: string;
};

export type VerifactuExportDeps = { db: Db; billing: BillingProfiles; workspaces: WorkspacesService; software: SoftwareInfo };

/**
 * The VERI*FACTU records of one issuer in a workspace, for a period, as the AEAT's XML
 * (RegFactuSistemaFacturacion): what the accountant or the AEAT asks for. Only records of invoices the
 * member may read; each record carries its previous one's reference, so a period's slice still chains.
 */
export class VerifactuExport {
  constructor(private readonly d: VerifactuExportDeps) {}

  /** The export's issuer and period, with their defaults; null when the caller has no issuer to export (no tax id given or set). */
  async period(c: Caller, q: z.infer<typeof verifactuExportQuery>) {
    const today = todayIn(DEFAULT_TIME_ZONE);
    const issuerTaxId =
      q.issuerTaxId || (await this.d.billing.get(c.userId)).taxId || (await this.d.workspaces.billingInfo(c.member.workspaceId)).taxId;
    if (!issuerTaxId) return null;
    return { issuerTaxId, from: q.from ?? `${today.slice(0, 4)}-01-01`, to: q.to ?? today };
  }

  async xml(c: Caller, q: { issuerTaxId: string; from: string; to: string }): Promise<{ xml: string; count: number } | null> {
    const issuer = normalizeTaxId(q.issuerTaxId);
    const rows = await verifactuRecordsRepository(this.d.db).ofPeriod(c.member.workspaceId, issuer, q.from, q.to, VERIFACTU_EXPORT_MAX + 1);
    const readable = rows.filter((r) => mayAct(c, 'read', r));
    if (readable.length > VERIFACTU_EXPORT_MAX)
      throw new AppError('invalid_argument', [{ path: 'to', message: `Más de ${VERIFACTU_EXPORT_MAX} registros: acota el periodo.` }]);
    if (!readable.length) return null;
    const records = readable.map((r) => toRecord(r.record));
    const xml = buildRegFactuXml({ issuer: { name: readable[0]!.record.issuerName, taxId: issuer }, software: this.d.software, records });
    return { xml, count: records.length };
  }
}

/** A stored registration record as the XML builder takes it. */
export function toRecord(r: VerifactuRecordRow): RegistrationRecord | CancellationRecord {
  if (r.recordType === 'cancellation') {
    const d = r.detail as CancellationDetail;
    return {
      kind: 'cancellation',
      invoice: { issuerTaxId: r.issuerTaxId, number: r.invoiceNumber, issueDate: r.issueDate },
      previous: d.previous && r.previousFingerprint ? { ...d.previous, fingerprint: r.previousFingerprint } : null,
      generatedAt: r.generatedAt,
      fingerprint: r.fingerprint,
    };
  }
  const d = r.detail as Detail;
  const lines = new Map<string, TaxLine>();
  for (const l of d.lines) {
    const key = l.exemption ? `E|${l.exemption}` : `T|${l.vatRate}`;
    const prev = lines.get(key);
    if (l.exemption === 'N2') lines.set(key, { kind: 'not_subject', code: 'N2', baseCents: (prev?.baseCents ?? 0) + l.base });
    else if (l.exemption) lines.set(key, { kind: 'exempt', exemption: l.exemption, baseCents: (prev?.baseCents ?? 0) + l.base });
    else
      lines.set(key, {
        kind: 'taxed',
        ratePercent: l.vatRate,
        baseCents: (prev?.baseCents ?? 0) + l.base,
        vatCents: (prev && prev.kind === 'taxed' ? prev.vatCents : 0) + l.vat,
      });
  }
  return {
    kind: 'registration',
    invoice: { issuerTaxId: r.issuerTaxId, number: r.invoiceNumber, issueDate: r.issueDate },
    issuerName: r.issuerName,
    invoiceType: r.invoiceType as RegistrationRecord['invoiceType'],
    rectification: d.rectifies
      ? {
          type: d.rectifies.method === 'substitution' ? 'S' : 'I',
          invoices: [{ issuerTaxId: r.issuerTaxId, number: d.rectifies.number, issueDate: d.rectifies.issueDate }],
          ...(d.rectifies.method === 'substitution' ? { rectified: { baseCents: d.rectifies.base, vatCents: d.rectifies.vat } } : {}),
        }
      : undefined,
    description: d.description || 'Servicios de psicología',
    recipients: recipientsOf(d.buyer),
    lines: [...lines.values()],
    vatTotalCents: r.vatTotal,
    totalCents: r.total,
    previous: d.previous && r.previousFingerprint ? { ...d.previous, fingerprint: r.previousFingerprint } : null,
    generatedAt: r.generatedAt,
    fingerprint: r.fingerprint,
  };
}

/**
 * IDDestinatario: a Spanish buyer by NIF; one from elsewhere by IDOtro — 02 (NIF-IVA) for an EU VAT id,
 * 04 (an official id of their country) otherwise; none without an id (a simplified invoice).
 */
function recipientsOf(buyer: Detail['buyer']): RegistrationRecord['recipients'] {
  if (!buyer.taxId) return undefined;
  const country = buyer.countryCode?.toUpperCase();
  if (!country || country === 'ES') return [{ name: buyer.name, taxId: buyer.taxId }];
  const idType = euVatIdCountry(buyer.taxId) === country ? '02' : '04';
  return [{ name: buyer.name, otherId: { countryCode: country, idType, id: buyer.taxId } }];
}
