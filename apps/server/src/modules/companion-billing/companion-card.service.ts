import { cardMandateText, type CompanionCard } from '@divan/core';
import { AppError } from '../../platform/errors';
import type { PatientAccountsService } from '../patient-accounts/patient-accounts.service';
import type { PatientCards } from '../payments/patient-cards.service';
import { holderKeyOf, type PaymentAccounts } from '../payments/payment-accounts.service';
import type { UsersService } from '../users/users.service';

type Deps = {
  accounts: PatientAccountsService;
  cards: PatientCards;
  paymentAccounts: PaymentAccounts;
  users: Pick<UsersService, 'findById'>;
  publicUrl: string;
};

/**
 * The patient's saved card on the account of their file's therapist, and «cobros automáticos», from
 * the companion: the payments module's cards (the same row the therapist's billing tab shows).
 */
export class CompanionCardService {
  constructor(private readonly d: Deps) {}

  async get(accountId: string, patientFileId: string): Promise<CompanionCard> {
    return this.present(await this.context(accountId, patientFileId));
  }

  /** A checkout in setup mode to save (or replace) the card; back to the companion afterwards. */
  async setup(accountId: string, patientFileId: string): Promise<{ url: string }> {
    const { workspaceId, patientId, key } = await this.context(accountId, patientFileId);
    if (!key || !(await this.d.paymentAccounts.chargeable(key))) throw new AppError('companion_card_not_available');
    const back = `${this.d.publicUrl}/p/${patientId}/facturas`;
    return this.d.cards.setupCheckout(workspaceId, patientId, key, { successUrl: `${back}?estado=tarjeta`, cancelUrl: back });
  }

  async setAutoCharge(accountId: string, patientFileId: string, enabled: boolean): Promise<CompanionCard> {
    const c = await this.context(accountId, patientFileId);
    if (!c.key || !(await this.d.cards.switchAutoCharge(c.patientId, c.key, enabled))) throw new AppError('companion_card_not_saved');
    return this.present(c);
  }

  /** Forgets the saved card (detached at the provider too); nothing saved: already as asked. */
  async remove(accountId: string, patientFileId: string): Promise<CompanionCard> {
    const c = await this.context(accountId, patientFileId);
    if (c.key) await this.d.cards.forget(c.patientId, c.key);
    return this.present(c);
  }

  /** The live file and the card holder of its patient: the assigned therapist (or the freelancer), if any. */
  private async context(accountId: string, patientFileId: string) {
    const { workspaceId, patientFileId: patientId } = await this.d.accounts.liveFileOf(accountId, patientFileId);
    const therapistId = await this.d.cards.therapistOfPatient(workspaceId, patientId);
    return { workspaceId, patientId, therapistId, key: therapistId ? holderKeyOf({ kind: 'therapist', userId: therapistId }) : null };
  }

  private async present({ patientId, therapistId, key }: Awaited<ReturnType<CompanionCardService['context']>>): Promise<CompanionCard> {
    const mode = this.d.paymentAccounts.gateway.mode;
    if (!therapistId || !key) return { mode, therapistName: null, canSave: false, card: null, autoCharge: true, mandate: null };
    const [row, account, therapist] = await Promise.all([
      this.d.cards.row(patientId, key),
      this.d.paymentAccounts.chargeable(key),
      this.d.users.findById(therapistId),
    ]);
    const therapistName = therapist ? [therapist.firstName, therapist.lastName].filter(Boolean).join(' ') : null;
    return {
      mode,
      therapistName,
      canSave: !!account,
      card: row?.paymentMethodId
        ? { brand: row.brand ?? 'card', last4: row.last4 ?? '????', expMonth: row.expMonth ?? 0, expYear: row.expYear ?? 0 }
        : null,
      autoCharge: row?.autoCharge ?? true,
      mandate: account ? cardMandateText(therapistName ?? 'tu terapeuta') : null,
    };
  }
}
