import type { PatientPaymentMethod } from '@divan/core';
import type { Db, DbOrTx } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { Mailer } from '../../platform/mail/mailer';
import type { Caller } from '../../platform/auth/caller';
import type { PatientsService } from '../patients/patients.service';
import type { UsersService } from '../users/users.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { holderKeyOf, viaGateway, type PaymentAccounts } from './payment-accounts.service';
import { paymentLinksRepository } from './payment-links.repository';
import { cardLinkMail } from './payments.mails';
import { paymentsRepository } from './payments.repository';
import type { PatientCardRow } from './payments.tables';

export type CardsDeps = {
  db: Db;
  accounts: PaymentAccounts;
  patients: PatientsService;
  users: UsersService;
  workspaces: WorkspacesService;
  mailer: Mailer;
  publicUrl: string;
  clock?: () => Date;
};

const nameOf = (u: { firstName: string; lastName: string | null } | undefined) =>
  u ? [u.firstName, u.lastName].filter(Boolean).join(' ') : 'Usuario eliminado';

/**
 * The patient's card, saved on their therapist's account by the patient themselves (a mailed link to
 * a Checkout Session in setup mode), and the «cobros automáticos» switch. Cards live on the
 * therapist's account: an invoice issued by the workspace is paid by link instead (spec §5).
 */
export class PatientCards {
  constructor(private readonly d: CardsDeps) {}

  /** Whose account the patient's card belongs on: their assigned therapist, the freelancer, else the caller. */
  async therapistOf(c: Caller, patient: { assignedTherapistId: string | null }, tx: DbOrTx = this.d.db): Promise<string> {
    return patient.assignedTherapistId ?? (await this.d.workspaces.soloOwnerOf(c.member.workspaceId, tx)) ?? c.userId;
  }

  async row(patientId: string, holderKey: string, db: DbOrTx = this.d.db): Promise<PatientCardRow | undefined> {
    return paymentsRepository(db).card(patientId, holderKey);
  }

  async get(c: Caller, patientId: string): Promise<PatientPaymentMethod> {
    const patient = await this.d.patients.accessible(c, patientId, 'read', 'patient_billing');
    const therapistId = await this.therapistOf(c, patient);
    const key = holderKeyOf({ kind: 'therapist', userId: therapistId });
    const [card, account, therapist, pending] = await Promise.all([
      this.row(patient.id, key),
      this.d.accounts.chargeable(key),
      this.d.users.findById(therapistId),
      paymentLinksRepository(this.d.db).pendingCardLink(patient.id, key, this.now()),
    ]);
    return {
      mode: this.d.accounts.gateway.mode,
      therapist: { id: therapistId, name: nameOf(therapist) },
      therapistCanCharge: !!account,
      card: card?.paymentMethodId
        ? { brand: card.brand ?? 'card', last4: card.last4 ?? '????', expMonth: card.expMonth ?? 0, expYear: card.expYear ?? 0 }
        : null,
      autoCharge: card?.autoCharge ?? true,
      mandateAcceptedAt: card?.mandateAcceptedAt?.toISOString() ?? null,
      pendingLinkExpiresAt: card?.paymentMethodId ? null : (pending?.toISOString() ?? null),
    };
  }

  /** A link for the patient to save a card (mailed to them unless `send` is false). */
  async link(c: Caller, patientId: string, send: boolean): Promise<{ url: string; expiresAt: string; mailedTo: string | null }> {
    const patient = await this.d.patients.accessible(c, patientId, 'update', 'patient_billing');
    const therapistId = await this.therapistOf(c, patient);
    const key = holderKeyOf({ kind: 'therapist', userId: therapistId });
    if (!(await this.d.accounts.chargeable(key))) throw new AppError('charge_not_connected');
    const to = send ? patient.email : null;
    if (send && !to)
      throw new AppError('invalid_argument', [{ path: 'send', message: 'El paciente no tiene email: copia el enlace y envíaselo tú.' }]);
    const [therapist, brand] = await Promise.all([this.d.users.findById(therapistId), this.d.workspaces.brandOf(c.member.workspaceId)]);
    const seller = nameOf(therapist);
    return this.d.db.transaction(async (tx) => {
      const { token, expiresAt } = await paymentLinksRepository(tx).create(
        { kind: 'card', workspaceId: c.member.workspaceId, holderKey: key, patientId: patient.id, mailedTo: to, createdBy: c.userId },
        this.now(),
      );
      const url = `${this.d.publicUrl}/pago/${token}`;
      if (to)
        await this.d.mailer.send(cardLinkMail(to, patient.firstName, seller, url, brand), {
          tx,
          purpose: 'payments.card-link',
          workspaceId: c.member.workspaceId,
        });
      return { url, expiresAt: expiresAt.toISOString(), mailedTo: to };
    });
  }

  async setAutoCharge(c: Caller, patientId: string, on: boolean): Promise<PatientPaymentMethod> {
    const patient = await this.d.patients.accessible(c, patientId, 'update', 'patient_billing');
    const key = holderKeyOf({ kind: 'therapist', userId: await this.therapistOf(c, patient) });
    if (!(await this.switchAutoCharge(patient.id, key, on))) throw new AppError('customer_not_created');
    return this.get(c, patientId);
  }

  /** Forgets the saved card (detached at the provider too); the customer stays for a new one. */
  async remove(c: Caller, patientId: string): Promise<PatientPaymentMethod> {
    const patient = await this.d.patients.accessible(c, patientId, 'update', 'patient_billing');
    await this.forget(patient.id, holderKeyOf({ kind: 'therapist', userId: await this.therapistOf(c, patient) }));
    return this.get(c, patientId);
  }

  /** «Cobros automáticos» on or off; false when the patient has no customer on the holder's account yet. */
  async switchAutoCharge(patientId: string, holderKey: string, on: boolean): Promise<boolean> {
    return paymentsRepository(this.d.db).setAutoCharge(patientId, holderKey, on);
  }

  /** Detaches and forgets the saved card, if any (nothing saved: already as asked). */
  async forget(patientId: string, holderKey: string): Promise<void> {
    const card = await this.row(patientId, holderKey);
    if (!card?.paymentMethodId) return;
    await viaGateway(() => this.d.accounts.gateway.detachPaymentMethod(card.accountId, card.paymentMethodId!));
    await paymentsRepository(this.d.db).setCard(patientId, holderKey, {
      paymentMethodId: null,
      brand: null,
      last4: null,
      expMonth: null,
      expYear: null,
      mandateAcceptedAt: null,
    });
  }

  /**
   * Whose account the card of a patient belongs on, seen without a member (the patient's companion):
   * the assigned therapist, else the freelancer; null when neither.
   */
  async therapistOfPatient(workspaceId: string, patientId: string): Promise<string | null> {
    const profile = (await this.d.patients.profilesOf(workspaceId, [patientId])).get(patientId);
    return profile?.therapistId ?? (await this.d.workspaces.soloOwnerOf(workspaceId));
  }

  /** A Checkout Session in setup mode on the holder's account, for the patient to save a card (the mailed link's, or the companion's). */
  async setupCheckout(
    workspaceId: string,
    patientId: string,
    holderKey: string,
    urls: { successUrl: string; cancelUrl: string },
  ): Promise<{ url: string }> {
    const account = await this.d.accounts.chargeable(holderKey);
    if (!account) throw new AppError('charge_not_connected');
    const contact = (await this.d.patients.contactOf(workspaceId, patientId)) ?? null;
    if (!contact) throw new AppError('payment_link_invalid');
    const name = (await this.d.patients.namesOf(workspaceId, [patientId])).get(patientId) ?? contact.firstName;
    const customerId = await this.customerFor({ id: patientId, name, email: contact.email }, workspaceId, holderKey, account.accountId);
    const metadata = { purpose: 'card', patientId, workspaceId };
    return viaGateway(() => this.d.accounts.gateway.checkoutSetup(account.accountId, { customerId, ...urls, metadata }));
  }

  /** The customer the patient pays as on the holder's account, created on first use. */
  async customerFor(
    patient: { id: string; name: string; email: string | null },
    workspaceId: string,
    holderKey: string,
    accountId: string,
  ): Promise<string> {
    const existing = await this.row(patient.id, holderKey);
    if (existing) return existing.customerId;
    const customer = await viaGateway(() =>
      this.d.accounts.gateway.createCustomer(accountId, {
        email: patient.email,
        name: patient.name,
        metadata: { patientId: patient.id, workspaceId },
      }),
    );
    const row = await paymentsRepository(this.d.db).insertCustomer({
      patientId: patient.id,
      holderKey,
      workspaceId,
      accountId,
      customerId: customer.id,
    });
    return row?.customerId ?? (await this.row(patient.id, holderKey))!.customerId;
  }

  /**
   * A SetupIntent succeeded (checkout in setup mode): the card is read from the provider and kept,
   * unless a newer one was saved meanwhile (an older event arriving late changes nothing).
   */
  async onSetupSucceeded(accountId: string, setupIntentId: string, createdAt: Date): Promise<void> {
    const { customerId, card } = await this.d.accounts.gateway.setupIntentCard(accountId, setupIntentId);
    if (!customerId || !card) return;
    const row = await paymentsRepository(this.d.db).cardOfCustomer(accountId, customerId);
    if (!row || (row.cardSetAt && row.cardSetAt > createdAt)) return;
    await paymentsRepository(this.d.db).setCard(row.patientId, row.holderKey, {
      paymentMethodId: card.paymentMethodId,
      brand: card.brand,
      last4: card.last4,
      expMonth: card.expMonth,
      expYear: card.expYear,
      mandateAcceptedAt: createdAt,
      cardSetAt: createdAt,
    });
  }

  private now() {
    return this.d.clock?.() ?? new Date();
  }
}
