import { batchMessages, ISSUER_SETTINGS, type InvoiceIssuer } from '@divan/core';
import type { Db } from '../../../platform/db/database';
import { AppError } from '../../../platform/errors';
import type { UsersService } from '../../users/users.service';
import type { WorkspacesService } from '../../workspaces/workspaces.service';
import type { BillingProfiles } from '../settings/billing-profiles.service';
import type { Caller } from '../../../platform/auth/caller';
import type { InvoiceableSession } from '../../sessions/session-invoicing';
import type { InvoiceIssuing } from '../issuing/invoice-issuing.service';
import type { ReadCache } from '../invoice-lines';
import type { InvoiceDraftsService } from '../invoice-drafts.service';

/** One invoice of a batch: a patient's sessions with one therapist, and who issues it. */
export type BatchGroup = {
  patientId: string;
  therapistId: string;
  issuer: Pick<InvoiceIssuer, 'kind' | 'id'>;
  sessions: InvoiceableSession[];
  sessionIds: string[];
  totalCents: number;
};

const issuerKey = (i: Pick<InvoiceIssuer, 'kind' | 'id'>) => `${i.kind}:${i.id}`;

/**
 * What a batch's preview and its job say of each invoice, the way issuing judges it: each group planned as
 * its draft would be (`planFromSessions`) and checked by issuing's own checks (`InvoiceIssuing.issuable`),
 * in a transaction that writes nothing. So the preview refuses exactly what «Emitir» would, the new tax
 * rules included, and a refusal for the seller's data names the issuer and where to complete it.
 */
export type BatchChecksDeps = {
  db: Db;
  drafts: InvoiceDraftsService;
  issuing: InvoiceIssuing;
  workspaces: WorkspacesService;
  billing: BillingProfiles;
  users: UsersService;
};

export class BatchChecks {
  private readonly drafts: InvoiceDraftsService;
  private readonly issuing: InvoiceIssuing;

  constructor(private readonly d: BatchChecksDeps) {
    this.drafts = d.drafts;
    this.issuing = d.issuing;
  }

  /** Each group's refusal (null: it would be issued), in the groups' order. */
  async judge(c: Caller, groups: BatchGroup[], issuers: Map<string, string>): Promise<(AppError | null)[]> {
    if (!groups.length) return [];
    return this.d.db.transaction(async (tx) => {
      const cache: ReadCache = new Map();
      const buyers = await this.drafts.buyersOf(c, [...new Set(groups.map((g) => g.patientId))], tx);
      const out: (AppError | null)[] = [];
      for (const g of groups) {
        try {
          const buyer = buyers.get(g.patientId);
          if (buyer instanceof AppError) throw buyer;
          const plan = await this.drafts.planFromSessions(tx, c, g.patientId, g.sessions, cache, buyer ?? null);
          // Issuing's own checks, called rather than copied, so the preview refuses exactly what issuing would.
          await this.issuing.issuable(tx, plan.values, plan.lines, undefined, cache);
          out.push(null);
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          out.push(this.named(err, g, issuers));
        }
      }
      return out;
    });
  }

  /** Issuing's «Completa los datos de facturación del emisor» said with the issuer's name and where. */
  named(err: AppError, g: Pick<BatchGroup, 'issuer'>, issuers: Map<string, string>): AppError {
    if (err.code !== 'invoice_seller_incomplete') return err;
    return new AppError(
      err.code,
      undefined,
      batchMessages.issuerIncomplete({ kind: g.issuer.kind, name: issuers.get(issuerKey(g.issuer)) ?? '' }),
    );
  }

  /**
   * The issuers' names as their invoices would print them (their billing name), else the therapist's or the
   * workspace's own name: a seller with no data yet is still named.
   */
  async issuerNames(c: Caller, groups: Pick<BatchGroup, 'issuer'>[]): Promise<Map<string, string>> {
    const d = this.d;
    const therapists = [...new Set(groups.filter((g) => g.issuer.kind === 'therapist').map((g) => g.issuer.id))];
    const names = new Map<string, string>();
    if (groups.some((g) => g.issuer.kind === 'workspace')) {
      const info = await d.workspaces.billingInfo(c.member.workspaceId);
      names.set(
        issuerKey({ kind: 'workspace', id: c.member.workspaceId }),
        info.fullName || ((await d.workspaces.nameOf(c.member.workspaceId)) ?? 'el espacio'),
      );
    }
    const users = await this.therapistNames(therapists);
    for (const id of therapists)
      names.set(issuerKey({ kind: 'therapist', id }), (await d.billing.get(id)).fullName || users.get(id) || 'Usuario eliminado');
    return names;
  }

  /** The therapists' names (first and last), by user id. */
  async therapistNames(ids: string[]): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    return new Map((await this.d.users.namesByIds(ids)).map((u) => [u.id, [u.firstName, u.lastName].filter(Boolean).join(' ')]));
  }

  /** The issuers whose data issuing refused, once each, with where the caller completes it (a link only to their own settings). */
  incomplete(c: Caller, groups: BatchGroup[], problems: (AppError | null)[], issuers: Map<string, string>) {
    const seen = new Map<string, InvoiceIssuer & { message: string; settingsPath: string | null }>();
    groups.forEach((g, i) => {
      const key = issuerKey(g.issuer);
      if (problems[i]?.code !== 'invoice_seller_incomplete' || seen.has(key)) return;
      const mine = g.issuer.kind === 'workspace' ? c.member.ability.can('update', 'workspace_billing') : g.issuer.id === c.userId;
      seen.set(key, {
        ...g.issuer,
        name: issuers.get(key) ?? '',
        message: problems[i]!.message,
        settingsPath: mine ? ISSUER_SETTINGS[g.issuer.kind].path : null,
      });
    });
    return [...seen.values()];
  }
}

export { issuerKey };
