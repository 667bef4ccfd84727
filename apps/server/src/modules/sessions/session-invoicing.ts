import { scopeFor, toLocal, type FeeBalanceInput } from '@divan/core';
import type { Db, DbOrTx, Tx } from '../../platform/db/database';
import type { Caller } from '../../platform/auth/caller';
import { sessionInvoicingRepository } from './session-invoicing.repository';
import type { SessionRow } from './sessions.tables';

/** A completed session as an invoice line sees it. */
/** A session that has just been completed, as the completion hooks see it. */
export type CompletedSession = {
  id: string;
  workspaceId: string;
  therapistId: string;
  patientId: string | null;
  startsAt: Date;
  timeZone: string;
};
export type InvoiceableSession = {
  id: string;
  therapistId: string;
  day: string;
  from: string;
  price: number;
  invoiced: boolean;
  modality: 'online' | 'presential';
};

/**
 * What invoicing needs of sessions, without reaching into this module's tables: the patient's completed
 * sessions not yet invoiced, and the `invoiced` flag, set in the invoice's own transaction.
 * `changed(workspaceId)` runs after a flag changed (the calendar's reads show it).
 */
export class SessionInvoicing {
  private completedHooks: ((tx: Tx, s: CompletedSession) => Promise<void>)[] = [];

  constructor(
    private readonly db: Db,
    private readonly changed: (workspaceId: string) => void = () => undefined,
  ) {}

  /**
   * Runs `hook` inside the transaction that completes a session (automatic invoices enqueue their job
   * there, so a completion never commits without it). Must use `tx` only.
   */
  onCompleted(hook: (tx: Tx, s: CompletedSession) => Promise<void>, opts: { first?: boolean } = {}) {
    if (opts.first) this.completedHooks.unshift(hook);
    else this.completedHooks.push(hook);
  }

  /** Whether a session is marked invoiced (inside a completing transaction: a pack may have just paid it). */
  async isInvoiced(tx: DbOrTx, id: string): Promise<boolean> {
    return sessionInvoicingRepository(tx).isInvoiced(id);
  }

  /** Called by the sessions service inside the completing transaction. */
  async completedIn(tx: Tx, s: CompletedSession) {
    for (const hook of this.completedHooks) await hook(tx, s);
  }

  /** The patient's completed sessions the caller may read, not yet invoiced, oldest first (at most 500). */
  async uninvoiced(c: Caller, patientId: string, range?: { from?: Date; to?: Date }): Promise<InvoiceableSession[]> {
    const scope = scopeFor(c.member.ability, 'read', 'sessions', c.userId);
    if (scope.kind === 'none') return [];
    const rows = await sessionInvoicingRepository(this.db).uninvoiced(c.member.workspaceId, scope, patientId, range);
    return rows.map(present);
  }

  /** The fee balance's sums: completed sessions started in [from, to), by therapist and payments receiver. */
  async feeSums(workspaceId: string, from: Date, to: Date): Promise<FeeBalanceInput[]> {
    return sessionInvoicingRepository(this.db).feeSums(workspaceId, from, to);
  }

  /**
   * Every completed, not-yet-invoiced session the caller reads that started in [from, to) (one
   * therapist's only, when given), by patient and start: what a batch invoices. At most 20,000.
   */
  async uninvoicedInRange(c: Caller, from: Date, to: Date, therapistId?: string): Promise<(InvoiceableSession & { patientId: string })[]> {
    const scope = scopeFor(c.member.ability, 'read', 'sessions', c.userId);
    if (scope.kind === 'none') return [];
    const rows = await sessionInvoicingRepository(this.db).uninvoicedInRange(c.member.workspaceId, scope, from, to, therapistId);
    return rows.map((s) => ({ ...present(s), patientId: s.patientId }));
  }

  /**
   * The given sessions, locked for the invoice's transaction, if every one is the patient's, completed
   * and readable by the caller; null otherwise. Whether they are already invoiced is the caller's to judge.
   */
  async lockForInvoice(tx: Tx, c: Caller, patientId: string, ids: string[]): Promise<InvoiceableSession[] | null> {
    const scope = scopeFor(c.member.ability, 'read', 'sessions', c.userId);
    if (scope.kind === 'none' || ids.length === 0) return null;
    const unique = [...new Set(ids)];
    const rows = await sessionInvoicingRepository(tx).lockCompleted(c.member.workspaceId, scope, patientId, unique);
    return rows.length === unique.length ? rows.map(present) : null;
  }

  /**
   * `lockForInvoice` for several patients at once (a batch's chunk), in one statement: every session of
   * the groups locked, in the order `lockForInvoice` takes them (start, then id), before any invoice
   * number; each group answered as that method answers (null unless all its sessions are the patient's,
   * completed and readable by the caller).
   */
  async lockForInvoices(
    tx: Tx,
    c: Caller,
    groups: { patientId: string; sessionIds: string[] }[],
  ): Promise<(InvoiceableSession[] | null)[]> {
    const scope = scopeFor(c.member.ability, 'read', 'sessions', c.userId);
    const all = [...new Set(groups.flatMap((g) => g.sessionIds))];
    if (!all.length) return groups.map(() => null);
    const rows = await sessionInvoicingRepository(tx).lockMany(c.member.workspaceId, all);
    return groups.map((g) => {
      const wanted = new Set(g.sessionIds);
      const mine = rows.filter((s) => wanted.has(s.id));
      const readable = (s: (typeof rows)[number]) =>
        s.patientId === g.patientId &&
        s.status === 'completed' &&
        (scope.kind === 'all' || (scope.kind === 'own' && s.therapistId === scope.ownerId));
      return wanted.size > 0 && mine.length === wanted.size && mine.every(readable) ? mine.map(present) : null;
    });
  }

  /** Sets the sessions' `invoiced` flag inside the invoice's transaction; `afterCommit` tells the calendar. */
  async setInvoiced(tx: DbOrTx, workspaceId: string, ids: string[], invoiced: boolean): Promise<void> {
    if (!ids.length) return;
    await sessionInvoicingRepository(tx).setInvoiced(workspaceId, ids, invoiced);
  }

  afterCommit(workspaceId: string) {
    this.changed(workspaceId);
  }
}

function present(s: SessionRow): InvoiceableSession {
  const start = toLocal(s.startsAt, s.timeZone);
  return {
    id: s.id,
    therapistId: s.therapistId,
    day: start.day,
    from: start.time,
    price: s.price,
    invoiced: s.invoiced,
    modality: s.modality,
  };
}
