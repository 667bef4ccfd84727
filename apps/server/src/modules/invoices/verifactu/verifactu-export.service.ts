import { and, asc, eq, gte, lte, or, sql } from 'drizzle-orm';
import { normalizeTaxId, todayIn, type verifactuExportQuery } from '@divan/core';
import type { z } from 'zod';
import type { Db } from '../../../platform/db/database';
import { DEV_VERIFACTU_PRODUCER, type VerifactuProducerConfig } from '../../../platform/verifactu-producer';
import { AppError } from '../../../platform/errors';
import type { Caller } from '../../../platform/auth/caller';
import { mayAct } from '../invoice-access';
import type { InvoicesService } from '../invoices.service';
import { invoices, verifactuRecords, type VerifactuRecordRow } from '../invoices.tables';
import type { CancellationDetail } from '../issuing/invoice-voiding.service';
import { buildRegFactuXml, type CancellationRecord, type RegistrationRecord, type SoftwareInfo, type TaxLine } from './';

/** The export's issuer and period, with their defaults; null when the caller has no issuer to export (no tax id given or set). */
export async function exportPeriod(invoices: InvoicesService, c: Caller, q: z.infer<typeof verifactuExportQuery>) {
  const today = todayIn('Europe/Madrid');
  const issuerTaxId =
    q.issuerTaxId ||
    (await invoices.d.billing.get(c.userId)).taxId ||
    (await invoices.d.workspaces.billingInfo(c.member.workspaceId)).taxId;
  if (!issuerTaxId) return null;
  return { issuerTaxId, from: q.from ?? `${today.slice(0, 4)}-01-01`, to: q.to ?? today };
}

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
  buyer: { name: string; taxId: string | null };
  lines: { vatRate: number; exemption: 'E1' | null; base: number; vat: number }[];
  rectifies: { number: string; issueDate: string; method: 'difference' | 'substitution'; base: number; vat: number } | null;
  description: string;
};

/**
 * The VERI*FACTU records of one issuer in a workspace, for a period, as the AEAT's XML
 * (RegFactuSistemaFacturacion): what the accountant or the AEAT asks for. Only records of invoices the
 * member may read; each record carries its previous one's reference, so a period's slice still chains.
 */
export async function exportVerifactuXml(
  db: Db,
  c: Caller,
  q: { issuerTaxId: string; from: string; to: string },
  software: SoftwareInfo,
): Promise<{ xml: string; count: number } | null> {
  const issuer = normalizeTaxId(q.issuerTaxId);
  const rows = await db
    .select({ record: verifactuRecords, sellerType: invoices.sellerType, ownerId: invoices.ownerId })
    .from(verifactuRecords)
    .innerJoin(invoices, eq(invoices.id, verifactuRecords.invoiceId))
    .where(
      and(
        eq(verifactuRecords.workspaceId, c.member.workspaceId),
        eq(verifactuRecords.issuerTaxId, issuer),
        // A registration by its invoice's date (the day it was generated); a cancellation by the day it was generated (in Madrid).
        or(
          and(
            eq(verifactuRecords.recordType, 'registration'),
            gte(verifactuRecords.issueDate, q.from),
            lte(verifactuRecords.issueDate, q.to),
          ),
          and(
            eq(verifactuRecords.recordType, 'cancellation'),
            sql`substr(${verifactuRecords.generatedAt}, 1, 10) between ${q.from} and ${q.to}`,
          ),
        ),
      ),
    )
    .orderBy(asc(verifactuRecords.position))
    .limit(VERIFACTU_EXPORT_MAX + 1);
  const readable = rows.filter((r) => mayAct(c, 'read', r));
  if (readable.length > VERIFACTU_EXPORT_MAX)
    throw new AppError('invalid_argument', [{ path: 'to', message: `Más de ${VERIFACTU_EXPORT_MAX} registros: acota el periodo.` }]);
  if (!readable.length) return null;
  const records = readable.map((r) => toRecord(r.record));
  const xml = buildRegFactuXml({ issuer: { name: readable[0]!.record.issuerName, taxId: issuer }, software, records });
  return { xml, count: records.length };
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
    if (l.exemption) lines.set(key, { kind: 'exempt', exemption: l.exemption, baseCents: (prev?.baseCents ?? 0) + l.base });
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
    recipients: d.buyer.taxId ? [{ name: d.buyer.name, taxId: d.buyer.taxId }] : undefined,
    lines: [...lines.values()],
    vatTotalCents: r.vatTotal,
    totalCents: r.total,
    previous: d.previous && r.previousFingerprint ? { ...d.previous, fingerprint: r.previousFingerprint } : null,
    generatedAt: r.generatedAt,
    fingerprint: r.fingerprint,
  };
}
