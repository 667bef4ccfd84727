import { and, asc, count, desc, eq, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import { RETENTION_YEARS, normalizeTaxId, normalizeText, phoneSearchDigits, type patientListQuery, type Scope } from '@divan/core';
import type { z } from 'zod';
import type { DbOrTx } from '../../platform/db/database';
import { idIn } from '../../platform/db/id-in';
import { reusableQuery } from '../../platform/db/reusable-query';
import { searchedPage, type PatientSummaryRow } from './patient-search.queries';
import { historyEntries, patients, type PatientRow } from './patients.tables';

export type NewPatient = typeof patients.$inferInsert;
export type ListQuery = z.output<typeof patientListQuery>;

/**
 * What search matches: accent-free, lower-case name, email and phone (digits too). Only fields every
 * reader of patient files may read (PATIENT_FIELDS): no treatment data, and the tax id is searched in
 * its own column by those who read billing data.
 */
export function searchTextOf(p: Pick<PatientRow, 'firstName' | 'lastName' | 'email' | 'phone'>): string {
  const phoneDigits = p.phone?.replace(/\D/g, '') ?? '';
  return normalizeText([p.firstName, p.lastName, p.email, p.phone, phoneDigits].filter(Boolean).join(' '));
}

/** The search as a tax id is stored (upper case, no separators), when it can be part of one. */
function taxIdTerm(q: string) {
  const t = normalizeTaxId(q);
  return /^[0-9A-Z]{3,}$/.test(t) ? t : '';
}

const like = (text: string) => sql`${patients.searchText} like ${`%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`;

/** The term as typed, or, when it is a phone number typed with spaces ("612 34 56"), its digits. */
function searchCondition(term: string, digits: string): SQL | undefined {
  return digits.length >= 3 && digits !== term ? or(like(term), like(digits)) : like(term);
}

/** "is owner" becomes a WHERE on the assigned therapist, never a post-filter. */
export function scopeCondition(scope: Scope): SQL | undefined {
  if (scope.kind === 'all') return undefined;
  if (scope.kind === 'own') return eq(patients.assignedTherapistId, scope.ownerId);
  return sql`false`;
}

const SORTS = {
  lastName: [patients.lastName, patients.firstName],
  firstName: [patients.firstName, patients.lastName],
  createdAt: [patients.createdAt],
  treatmentStartDate: [patients.treatmentStartDate],
} as const;

const nameColumns = {
  id: patients.id,
  firstName: patients.firstName,
  lastName: patients.lastName,
  birthdate: patients.birthdate,
  status: patients.treatmentStatus,
  therapistId: patients.assignedTherapistId,
};
type PatientName = {
  id: string;
  firstName: string;
  lastName: string | null;
  birthdate: string | null;
  status: PatientRow['treatmentStatus'];
  therapistId: string | null;
};
/** One patient's name: read to present nearly every record about them (built once, see reusableQuery). */
const nameOne = reusableQuery<{ workspaceId: string; id: string }, PatientName[]>('patient_name', (db) =>
  db
    .select(nameColumns)
    .from(patients)
    .where(and(eq(patients.workspaceId, sql.placeholder('workspaceId')), eq(patients.id, sql.placeholder('id')))),
);

/** The list's columns (PatientSummaryRow). */
const summaryColumns = {
  id: patients.id,
  firstName: patients.firstName,
  lastName: patients.lastName,
  email: patients.email,
  phone: patients.phone,
  billingTaxId: patients.billingTaxId,
  treatmentStatus: patients.treatmentStatus,
  treatmentMotive: patients.treatmentMotive,
  treatmentSessionType: patients.treatmentSessionType,
  assignedTherapistId: patients.assignedTherapistId,
  treatmentStartDate: patients.treatmentStartDate,
  createdAt: patients.createdAt,
} satisfies Record<keyof PatientSummaryRow, unknown>;
export type { PatientSummaryRow };

export function patientsRepository(db: DbOrTx) {
  return {
    async insert(values: NewPatient): Promise<PatientRow> {
      const [row] = await db.insert(patients).values(values).returning();
      return row!;
    },
    async insertMany(values: NewPatient[]) {
      // Batches keep each statement under the parameter limit.
      for (let i = 0; i < values.length; i += 500) await db.insert(patients).values(values.slice(i, i + 500));
    },
    async find(workspaceId: string, id: string, scope: Scope): Promise<PatientRow | undefined> {
      const [row] = await db
        .select()
        .from(patients)
        .where(and(eq(patients.workspaceId, workspaceId), eq(patients.id, id), isNull(patients.blockedAt), scopeCondition(scope)));
      return row;
    },
    /** `find` for several ids at once (those in scope; the others are missing from the answer). */
    async findMany(workspaceId: string, ids: string[], scope: Scope): Promise<PatientRow[]> {
      if (!ids.length) return [];
      return db
        .select()
        .from(patients)
        .where(and(eq(patients.workspaceId, workspaceId), inArray(patients.id, ids), isNull(patients.blockedAt), scopeCondition(scope)));
    },
    async update(id: string, values: Partial<NewPatient>) {
      const [row] = await db
        .update(patients)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(patients.id, id))
        .returning();
      return row!;
    },
    async touch(id: string) {
      await db.update(patients).set({ lastActivityAt: new Date() }).where(eq(patients.id, id));
    },
    async delete(id: string) {
      await db.delete(patients).where(eq(patients.id, id));
    },
    /** A blocked patient, locked for its erasure. */
    async lockBlocked(id: string) {
      const [row] = await db
        .select()
        .from(patients)
        .where(and(eq(patients.id, id), isNotNull(patients.blockedAt)))
        .for('update');
      return row;
    },
    /** Blocked patients whose retention period (see `retentionEnd`) is over, oldest first. */
    async blockedPastRetention(now: Date, limit: number) {
      const end = sql`greatest(${patients.lastActivityAt}, coalesce(${patients.treatmentEndDate}::timestamptz, 'epoch'::timestamptz)) + make_interval(years => ${RETENTION_YEARS})`;
      return db
        .select()
        .from(patients)
        .where(and(isNotNull(patients.blockedAt), sql`${end} <= ${now.toISOString()}::timestamptz`))
        .orderBy(asc(patients.blockedAt))
        .limit(limit);
    },
    /** A patient with the same email or tax id, not blocked. */
    async findDuplicate(workspaceId: string, email: string | null, taxId: string | null, exceptId?: string) {
      const conds = [email ? eq(patients.email, email) : undefined, taxId ? eq(patients.billingTaxId, taxId) : undefined].filter(
        Boolean,
      ) as SQL[];
      if (!conds.length) return undefined;
      const rows = await db
        .select({ id: patients.id })
        .from(patients)
        .where(and(eq(patients.workspaceId, workspaceId), isNull(patients.blockedAt), or(...conds)))
        .limit(2);
      return rows.find((r) => r.id !== exceptId);
    },
    /** Of these emails and tax ids, the ones a patient (not blocked) already has: one query per thousand, for the importer. */
    async existingContacts(workspaceId: string, emails: string[], taxIds: string[]) {
      const found = { emails: new Set<string>(), taxIds: new Set<string>() };
      for (let i = 0; i < Math.max(emails.length, taxIds.length); i += 1000) {
        const e = emails.slice(i, i + 1000);
        const tx = taxIds.slice(i, i + 1000);
        const rows = await db
          .select({ email: patients.email, taxId: patients.billingTaxId })
          .from(patients)
          .where(
            and(
              eq(patients.workspaceId, workspaceId),
              isNull(patients.blockedAt),
              or(e.length ? inArray(patients.email, e) : undefined, tx.length ? inArray(patients.billingTaxId, tx) : undefined),
            ),
          );
        for (const r of rows) {
          if (r.email && e.includes(r.email)) found.emails.add(r.email);
          if (r.taxId && tx.includes(r.taxId)) found.taxIds.add(r.taxId);
        }
      }
      return found;
    },
    /** The live file of this (lower-case) email, whatever the case it was typed in; the most recent when several share it. */
    async findByEmail(workspaceId: string, email: string) {
      const [row] = await db
        .select({ id: patients.id, firstName: patients.firstName, treatmentStatus: patients.treatmentStatus })
        .from(patients)
        .where(and(eq(patients.workspaceId, workspaceId), sql`lower(${patients.email}) = ${email}`, isNull(patients.blockedAt)))
        .orderBy(desc(patients.createdAt))
        .limit(1);
      return row;
    },
    /** Active patients counted against a therapist's plan limit (unassigned ones count for who created them). */
    async countActiveFor(workspaceId: string, therapistId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(patients)
        .where(
          and(
            eq(patients.workspaceId, workspaceId),
            eq(patients.treatmentStatus, 'active'),
            isNull(patients.blockedAt),
            sql`coalesce(${patients.assignedTherapistId}, ${patients.createdBy}) = ${therapistId}`,
          ),
        );
      return row?.n ?? 0;
    },
    /**
     * One page, the total, and the counts per status, in two bounded queries. The service has checked
     * the filters and the sort against the fields the member reads (PATIENT_FIELDS).
     */
    async list(workspaceId: string, scope: Scope, q: ListQuery, { searchTaxId = false } = {}) {
      const term = q.q ? normalizeText(q.q) : '';
      const taxTerm = searchTaxId && q.q ? taxIdTerm(q.q) : '';
      const search = term ? searchCondition(term, phoneSearchDigits(q.q ?? '')) : undefined;
      const base = and(
        eq(patients.workspaceId, workspaceId),
        isNull(patients.blockedAt),
        scopeCondition(scope),
        // The tax id only for those who read billing data (the service says so): its own trigram index.
        taxTerm ? or(search, sql`${patients.billingTaxId} like ${`%${taxTerm}%`}`) : search,
        q.therapistId === 'unassigned'
          ? isNull(patients.assignedTherapistId)
          : q.therapistId
            ? eq(patients.assignedTherapistId, q.therapistId)
            : undefined,
        q.sessionType ? eq(patients.treatmentSessionType, q.sessionType) : undefined,
        q.motive ? eq(patients.treatmentMotive, q.motive) : undefined,
      );
      // A search: the page and the counts from its matches, found once (patient-search.queries.ts).
      if (term) {
        const { items, counts } = await searchedPage(db, {
          matches: base,
          status: q.status,
          sort: q.sort,
          dir: q.dir,
          limit: q.pageSize,
          offset: (q.page - 1) * q.pageSize,
        });
        return { items, counts, total: q.status ? counts[q.status] : counts.active + counts.paused + counts.inactive };
      }
      const where = and(base, q.status ? eq(patients.treatmentStatus, q.status) : undefined);
      const order = (q.dir === 'desc' ? SORTS[q.sort].map((c) => sql`${c} desc nulls last`) : SORTS[q.sort].map((c) => asc(c))).concat(
        q.dir === 'desc' ? desc(patients.id) : asc(patients.id),
      );
      const [items, statusRows] = await Promise.all([
        db
          .select(summaryColumns)
          .from(patients)
          .where(where)
          .orderBy(...order)
          .limit(q.pageSize)
          .offset((q.page - 1) * q.pageSize),
        db.select({ status: patients.treatmentStatus, n: count() }).from(patients).where(base).groupBy(patients.treatmentStatus),
      ]);
      const counts = { active: 0, paused: 0, inactive: 0 };
      for (const r of statusRows) counts[r.status] = r.n;
      const total = q.status ? counts[q.status] : counts.active + counts.paused + counts.inactive;
      return { items, total, counts };
    },
    /** Entries `readerId` sees: everyone's shared ones and their own private ones, not deleted (as the history list shows). */
    async historyCount(patientId: string, readerId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(historyEntries)
        .where(
          and(
            eq(historyEntries.patientId, patientId),
            isNull(historyEntries.deletedAt),
            or(eq(historyEntries.private, false), eq(historyEntries.authorId, readerId)),
          ),
        );
      return row?.n ?? 0;
    },
    /** Name and birthdate of the workspace's patients among `ids`. */
    async namesIn(workspaceId: string, ids: string[]): Promise<PatientName[]> {
      if (!ids.length) return [];
      if (ids.length === 1) return nameOne(db, 'one', { workspaceId, id: ids[0]! });
      return db
        .select(nameColumns)
        .from(patients)
        .where(and(eq(patients.workspaceId, workspaceId), idIn(patients.id, ids)));
    },
    /** The ids of the workspace's patients in `scope`, as a subquery for another module's WHERE … IN. */
    /** The ids a scope sees, optionally only those whose name or contact matches `search`, in `statuses`, and not blocked (`live`; the chat list). */
    idsInScope(
      workspaceId: string,
      scope: Scope,
      filter: { search?: string; statuses?: PatientRow['treatmentStatus'][]; live?: boolean } = {},
    ) {
      const term = filter.search ? normalizeText(filter.search) : '';
      return db
        .select({ id: patients.id })
        .from(patients)
        .where(
          and(
            eq(patients.workspaceId, workspaceId),
            scopeCondition(scope),
            term ? searchCondition(term, phoneSearchDigits(filter.search ?? '')) : undefined,
            filter.statuses ? inArray(patients.treatmentStatus, filter.statuses) : undefined,
            filter.live ? isNull(patients.blockedAt) : undefined,
          ),
        );
    },
    async idsIn(workspaceId: string, ids: string[]) {
      if (!ids.length) return [];
      return db
        .select({ id: patients.id })
        .from(patients)
        .where(and(eq(patients.workspaceId, workspaceId), inArray(patients.id, ids)));
    },
  };
}
