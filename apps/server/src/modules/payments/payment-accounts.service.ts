import type { PaymentAccount } from '@divan/core';
import type { Db, DbOrTx } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import { GatewayCardError, GatewayUnavailableError, type GatewayAccount, type PaymentsGateway } from '../../platform/payments/gateway';
import { paymentsRepository } from './payments.repository';
import type { PaymentAccountRow } from './payments.tables';

/** Who receives card payments: a therapist or a workspace (the same keys as an invoice's seller). */
export type Holder = { kind: 'therapist'; userId: string } | { kind: 'workspace'; workspaceId: string };
export const holderKeyOf = (h: Holder) => (h.kind === 'therapist' ? `user:${h.userId}` : `workspace:${h.workspaceId}`);

/** A provider's failure is a Spanish 502, never a 500; card errors are handled where charges are made. */
export async function viaGateway<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    // Unreachable, or a request the provider refused (an unknown object, a state it does not allow).
    if (
      err instanceof GatewayUnavailableError ||
      (err instanceof Error && !(err instanceof AppError) && !(err instanceof GatewayCardError))
    )
      throw new AppError('payment_provider_error');
    throw err;
  }
}

/**
 * The connected accounts (Stripe Connect, Express): connect, onboarding and dashboard links, and the
 * account's state, read back from the provider after onboarding or on `account.updated`.
 */
export class PaymentAccounts {
  constructor(
    private readonly db: Db,
    readonly gateway: PaymentsGateway,
    private readonly publicUrl: string,
  ) {}

  async row(holderKey: string, db: DbOrTx = this.db): Promise<PaymentAccountRow | undefined> {
    return paymentsRepository(db).accountOf(holderKey);
  }

  /** The account of a holder that can take card payments, or undefined. */
  async chargeable(holderKey: string, db: DbOrTx = this.db): Promise<PaymentAccountRow | undefined> {
    const row = await this.row(holderKey, db);
    return row?.chargesEnabled ? row : undefined;
  }

  async get(h: Holder): Promise<PaymentAccount> {
    return this.present(h, await this.row(holderKeyOf(h)));
  }

  /** Creates the holder's Express account once (`payment_account_already_connected` after that). */
  async connect(h: Holder, who: { email: string | null; businessName: string | null }): Promise<PaymentAccount> {
    const key = holderKeyOf(h);
    if (await this.row(key)) throw new AppError('payment_account_already_connected');
    const account = await viaGateway(() => this.gateway.createAccount({ ...who, metadata: { holder: key } }));
    const row = await paymentsRepository(this.db).insertAccount({
      holderKey: key,
      provider: this.gateway.provider,
      accountId: account.id,
      ...stateOf(account),
    });
    // Two clicks at once: the other request connected first (the account made here stays unused at the provider).
    if (!row) throw new AppError('payment_account_already_connected');
    return this.present(h, row);
  }

  /** Stripe's onboarding page; it comes back to settings › billing › stripe-onboarding, which syncs the state. */
  async onboardingLink(h: Holder): Promise<{ url: string }> {
    const row = await this.required(h);
    const back = `${this.publicUrl}/settings/billing/stripe-onboarding${h.kind === 'workspace' ? `?workspace=${h.workspaceId}` : ''}`;
    const sep = back.includes('?') ? '&' : '?';
    return viaGateway(() => this.gateway.onboardingLink(row.accountId, { returnUrl: back, refreshUrl: `${back}${sep}refresh=1` }));
  }

  async dashboardLink(h: Holder): Promise<{ url: string }> {
    const row = await this.required(h);
    // Stripe gives an Express dashboard only once the account's details are in.
    if (!row.detailsSubmitted) throw new AppError('payment_account_incomplete');
    return viaGateway(() => this.gateway.dashboardLink(row.accountId));
  }

  /** Reads the account's state from the provider now (after onboarding, or when the screen asks). */
  async sync(h: Holder): Promise<PaymentAccount> {
    const row = await this.required(h);
    const account = await viaGateway(() => this.gateway.retrieveAccount(row.accountId));
    return this.present(h, await this.write(account));
  }

  /** `account.updated`: the state is read from the provider, so an old event arriving late cannot undo a newer one. */
  async onAccountEvent(accountId: string): Promise<void> {
    if (!(await paymentsRepository(this.db).accountById(accountId))) return;
    await this.write(await this.gateway.retrieveAccount(accountId));
  }

  private async write(account: GatewayAccount) {
    return paymentsRepository(this.db).setAccountState(account.id, stateOf(account));
  }

  private async required(h: Holder) {
    const row = await this.row(holderKeyOf(h));
    if (!row) throw new AppError('payment_account_not_created');
    return row;
  }

  present(h: Holder, row: PaymentAccountRow | undefined): PaymentAccount {
    const base = { holder: h.kind, mode: this.gateway.mode, provider: this.gateway.provider };
    if (!row)
      return {
        ...base,
        status: 'not_connected',
        accountId: null,
        detailsSubmitted: false,
        chargesEnabled: false,
        payoutsEnabled: false,
        connectedAt: null,
      };
    const status = row.chargesEnabled ? 'active' : row.detailsSubmitted ? 'restricted' : 'pending';
    return {
      ...base,
      status,
      accountId: row.accountId,
      detailsSubmitted: row.detailsSubmitted,
      chargesEnabled: row.chargesEnabled,
      payoutsEnabled: row.payoutsEnabled,
      connectedAt: row.createdAt.toISOString(),
    };
  }
}

const stateOf = (a: GatewayAccount) => ({
  detailsSubmitted: a.detailsSubmitted,
  chargesEnabled: a.chargesEnabled,
  payoutsEnabled: a.payoutsEnabled,
});
