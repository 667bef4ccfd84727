import { and, asc, count, desc, eq, inArray, isNull, lt, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { ConsentEnvelopeListQuery } from '@divan/core';
import type { DbOrTx } from '../../platform/db/database';
import { consentTemplates } from './consent-templates.tables';
import {
  consentEnvelopeEvents,
  consentEnvelopes,
  consentSigners,
  type EnvelopeEventRow,
  type EnvelopeRow,
  type SignerRow,
} from './consent-envelopes.tables';

export type NewEnvelope = typeof consentEnvelopes.$inferInsert;
export type NewSigner = typeof consentSigners.$inferInsert;
export type NewEvent = typeof consentEnvelopeEvents.$inferInsert;
export type EnvelopeListed = { envelope: EnvelopeRow; templateName: string };
/**
 * Who may be listed: every envelope or those the caller sent, and of the patients the caller sees
 * (`patientIds`, the patients module's subquery; null when the caller sees them all).
 */
export type EnvelopeScope = { therapistId: string | null; patientIds: SQLWrapper | null };

export function consentEnvelopesRepository(db: DbOrTx) {
  return {
    async insert(
      values: NewEnvelope,
      signers: Omit<NewSigner, 'envelopeId' | 'workspaceId'>[],
    ): Promise<{ envelope: EnvelopeRow; signers: SignerRow[] }> {
      const [envelope] = await db.insert(consentEnvelopes).values(values).returning();
      const rows = await db
        .insert(consentSigners)
        .values(signers.map((s) => ({ ...s, workspaceId: envelope!.workspaceId, envelopeId: envelope!.id })))
        .returning();
      return { envelope: envelope!, signers: rows.sort((a, b) => a.position - b.position) };
    },

    async find(workspaceId: string, id: string): Promise<EnvelopeRow | undefined> {
      const [row] = await db
        .select()
        .from(consentEnvelopes)
        .where(and(eq(consentEnvelopes.workspaceId, workspaceId), eq(consentEnvelopes.id, id)));
      return row;
    },

    async byId(id: string): Promise<EnvelopeRow | undefined> {
      const [row] = await db.select().from(consentEnvelopes).where(eq(consentEnvelopes.id, id));
      return row;
    },

    async lock(id: string): Promise<EnvelopeRow | undefined> {
      const [row] = await db.select().from(consentEnvelopes).where(eq(consentEnvelopes.id, id)).for('update');
      return row;
    },

    async update(id: string, values: Partial<NewEnvelope>): Promise<EnvelopeRow> {
      const [row] = await db.update(consentEnvelopes).set(values).where(eq(consentEnvelopes.id, id)).returning();
      return row!;
    },

    async list(
      workspaceId: string,
      scope: EnvelopeScope,
      q: ConsentEnvelopeListQuery & { patientId?: string },
    ): Promise<{ items: EnvelopeListed[]; total: number }> {
      const where: (SQL | undefined)[] = [eq(consentEnvelopes.workspaceId, workspaceId)];
      if (scope.therapistId) where.push(eq(consentEnvelopes.therapistId, scope.therapistId));
      if (scope.patientIds) where.push(inArray(consentEnvelopes.patientId, sql`(${scope.patientIds})`));
      if (q.state) where.push(eq(consentEnvelopes.state, q.state));
      if (q.patientId) where.push(eq(consentEnvelopes.patientId, q.patientId));
      if (q.templateId) where.push(eq(consentEnvelopes.templateId, q.templateId));
      const filter = and(...where);
      const joined = db
        .select({ envelope: consentEnvelopes, templateName: consentTemplates.name })
        .from(consentEnvelopes)
        .innerJoin(consentTemplates, eq(consentTemplates.id, consentEnvelopes.templateId));
      const [items, [total]] = await Promise.all([
        joined
          .where(filter)
          .orderBy(desc(consentEnvelopes.sentAt), desc(consentEnvelopes.id))
          .limit(q.pageSize)
          .offset((q.page - 1) * q.pageSize),
        db.select({ n: count() }).from(consentEnvelopes).where(filter),
      ]);
      return { items, total: total?.n ?? 0 };
    },

    /** A patient's envelopes, newest first (the patient's own list in the companion). */
    ofPatient(workspaceId: string, patientId: string, limit = 200): Promise<EnvelopeRow[]> {
      return db
        .select()
        .from(consentEnvelopes)
        .where(and(eq(consentEnvelopes.workspaceId, workspaceId), eq(consentEnvelopes.patientId, patientId)))
        .orderBy(desc(consentEnvelopes.sentAt), desc(consentEnvelopes.id))
        .limit(limit);
    },

    /** The template's current name (the envelope's own text never changes). */
    async templateName(templateId: string): Promise<string> {
      const [row] = await db.select({ name: consentTemplates.name }).from(consentTemplates).where(eq(consentTemplates.id, templateId));
      return row?.name ?? '';
    },

    signers(envelopeIds: string[]): Promise<SignerRow[]> {
      if (!envelopeIds.length) return Promise.resolve([]);
      return db.select().from(consentSigners).where(inArray(consentSigners.envelopeId, envelopeIds)).orderBy(asc(consentSigners.position));
    },

    async signerByTokenHash(tokenHash: string): Promise<SignerRow | undefined> {
      const [row] = await db.select().from(consentSigners).where(eq(consentSigners.tokenHash, tokenHash));
      return row;
    },

    async updateSigner(id: string, values: Partial<NewSigner>): Promise<SignerRow> {
      const [row] = await db.update(consentSigners).set(values).where(eq(consentSigners.id, id)).returning();
      return row!;
    },

    /** Marks a signer opened once; true when this call did. */
    async markOpened(id: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(consentSigners)
        .set({ openedAt: at })
        .where(and(eq(consentSigners.id, id), isNull(consentSigners.openedAt)))
        .returning({ id: consentSigners.id });
      return rows.length === 1;
    },

    /** Unsigned, unexpired signers of live envelopes mailed before `before` (reminder candidates), oldest first. */
    reminderCandidates(before: Date, now: Date, limit: number) {
      return db
        .select({ signer: consentSigners, envelope: consentEnvelopes })
        .from(consentSigners)
        .innerJoin(consentEnvelopes, eq(consentEnvelopes.id, consentSigners.envelopeId))
        .where(
          and(
            isNull(consentSigners.signedAt),
            sql`${consentSigners.mailedAt} IS NOT NULL`,
            lt(consentEnvelopes.sentAt, before),
            sql`${consentSigners.expiresAt} > ${now.toISOString()}`,
            or(eq(consentEnvelopes.state, 'sent'), eq(consentEnvelopes.state, 'opened')),
          ),
        )
        .orderBy(asc(consentEnvelopes.sentAt))
        .limit(limit);
    },

    async addEvent(values: NewEvent): Promise<EnvelopeEventRow> {
      const [row] = await db.insert(consentEnvelopeEvents).values(values).returning();
      return row!;
    },

    events(envelopeId: string): Promise<EnvelopeEventRow[]> {
      return db
        .select()
        .from(consentEnvelopeEvents)
        .where(eq(consentEnvelopeEvents.envelopeId, envelopeId))
        .orderBy(asc(consentEnvelopeEvents.id));
    },
  };
}
