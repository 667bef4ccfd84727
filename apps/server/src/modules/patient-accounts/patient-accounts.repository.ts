import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import { patientAccounts, patientConnections, type PatientAccountRow, type PatientConnectionRow } from './patient-accounts.tables';

export type { PatientAccountRow, PatientConnectionRow };

/** The only file that touches the patient accounts' tables. */
export function patientAccountsRepository(db: DbOrTx) {
  return {
    async findAccountByEmail(email: string): Promise<PatientAccountRow | undefined> {
      const [row] = await db.select().from(patientAccounts).where(eq(patientAccounts.email, email.toLowerCase()));
      return row;
    },
    async findAccount(id: string): Promise<PatientAccountRow | undefined> {
      const [row] = await db.select().from(patientAccounts).where(eq(patientAccounts.id, id));
      return row;
    },
    /** The account of `email`, made if there is none (two at once: both get the one row). */
    async ensureAccount(email: string, firstName: string): Promise<PatientAccountRow> {
      await db.insert(patientAccounts).values({ email: email.toLowerCase(), firstName }).onConflictDoNothing();
      return (await this.findAccountByEmail(email))!;
    },

    async findConnection(patientId: string): Promise<PatientConnectionRow | undefined> {
      const [row] = await db.select().from(patientConnections).where(eq(patientConnections.patientId, patientId));
      return row;
    },
    /** Locks the file's connection row, if any, for an invitation or a connect that decides on it. */
    async lockConnection(patientId: string): Promise<PatientConnectionRow | undefined> {
      const [row] = await db.select().from(patientConnections).where(eq(patientConnections.patientId, patientId)).for('update');
      return row;
    },
    async findInvitation(tokenHash: string): Promise<PatientConnectionRow | undefined> {
      const [row] = await db
        .select()
        .from(patientConnections)
        .where(and(eq(patientConnections.tokenHash, tokenHash), isNull(patientConnections.accountId)));
      return row;
    },
    /** A new invitation for the file, replacing an earlier one (never a connection: the caller checked). */
    async upsertInvitation(values: {
      patientId: string;
      workspaceId: string;
      email: string;
      tokenHash: string;
      invitedBy: string;
      inviteExpiresAt: Date;
    }) {
      const invitedAt = new Date();
      const [row] = await db
        .insert(patientConnections)
        .values({ ...values, invitedAt })
        .onConflictDoUpdate({
          target: patientConnections.patientId,
          set: {
            email: values.email,
            tokenHash: values.tokenHash,
            invitedBy: values.invitedBy,
            inviteExpiresAt: values.inviteExpiresAt,
            invitedAt,
          },
          where: isNull(patientConnections.accountId),
        })
        .returning();
      return row;
    },
    /** Accepts the invitation once: of two racing accepts only one connects. */
    async connect(patientId: string, tokenHash: string, accountId: string): Promise<PatientConnectionRow | undefined> {
      const [row] = await db
        .update(patientConnections)
        .set({ accountId, connectedAt: new Date(), tokenHash: null })
        .where(
          and(
            eq(patientConnections.patientId, patientId),
            eq(patientConnections.tokenHash, tokenHash),
            isNull(patientConnections.accountId),
          ),
        )
        .returning();
      return row;
    },
    async remove(patientId: string, accountId?: string): Promise<PatientConnectionRow | undefined> {
      const [row] = await db
        .delete(patientConnections)
        .where(and(eq(patientConnections.patientId, patientId), accountId ? eq(patientConnections.accountId, accountId) : undefined))
        .returning();
      return row;
    },
    /** The accounts connected to a file (at most one today: a file connects to one account). */
    async accountsOf(patientId: string): Promise<string[]> {
      const rows = await db
        .select({ accountId: patientConnections.accountId })
        .from(patientConnections)
        .where(and(eq(patientConnections.patientId, patientId), isNotNull(patientConnections.accountId)));
      return rows.map((r) => r.accountId!);
    },
    /** The files connected to the account, oldest connection first. */
    async connectedTo(accountId: string): Promise<{ patientId: string; workspaceId: string; connectedAt: Date }[]> {
      const rows = await db
        .select({
          patientId: patientConnections.patientId,
          workspaceId: patientConnections.workspaceId,
          connectedAt: patientConnections.connectedAt,
        })
        .from(patientConnections)
        .where(and(eq(patientConnections.accountId, accountId), isNotNull(patientConnections.connectedAt)))
        .orderBy(patientConnections.connectedAt, sql`${patientConnections.patientId}`);
      return rows.map((r) => ({ ...r, connectedAt: r.connectedAt! }));
    },
  };
}
