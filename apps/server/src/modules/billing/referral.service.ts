import { randomInt } from 'node:crypto';
import {
  mailboxOf,
  maskEmail,
  REFERRAL_CODE_ALPHABET,
  REFERRAL_CODE_LENGTH,
  REFERRAL_FRIEND_DAYS,
  type Referral,
  type ReferralInviter,
} from '@divan/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Membership } from '../../platform/auth/access';
import type { PlatformBilling } from '../../platform/billing/platform-billing';
import type { Db, DbOrTx } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { UsersService } from '../users/users.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { billingRepository } from './billing.repository';
import type { ReferralRow } from './billing.tables';
import { placeCreditLine, takesCredit } from './credit-line';
import { referralRepository } from './referral.repository';

export type ReferralDeps = {
  db: Db;
  billing: PlatformBilling | null;
  workspaces: WorkspacesService;
  users: UsersService;
  publicUrl: string;
  log: FastifyBaseLogger;
  clock: () => Date;
};

const newCode = () =>
  Array.from({ length: REFERRAL_CODE_LENGTH }, () => REFERRAL_CODE_ALPHABET[randomInt(REFERRAL_CODE_ALPHABET.length)]).join('');

/** One month of a subscription, before VAT: a yearly one's twelfth, rounded to the cent. */
export const monthOf = (sub: { interval: 'month' | 'year'; unitAmount: number; quantity: number }) =>
  sub.interval === 'month' ? sub.unitAmount * sub.quantity : Math.round((sub.unitAmount * sub.quantity) / 12);

/**
 * Referral (issue 27 slice 5, decision 0026 §8; spec §9): a personal code per therapist; a friend who
 * joins with it — at sign-up, or later if none of the workspaces they own ever had a plan, here or on the
 * provider — gets 30 more days of trial; the referrer gets one month of their plan off once the friend's
 * first non-zero charge is paid, as a credit line on the referrer's next invoice (before VAT: the
 * taxable base drops). Once per friend, whatever the webhooks do: the reward is a conditional update of
 * the friend's one referral row, and its credit goes to the provider under the referral's own key. A
 * friend who pays with the referrer's own card is the referrer under another account: no month off.
 */
export class ReferralService {
  constructor(private readonly d: ReferralDeps) {}

  /** The person's code, made the first time (a collision, 1 in 10¹², draws again). */
  async codeOf(userId: string): Promise<string> {
    const repo = referralRepository(this.d.db);
    for (let i = 0; i < 5; i++) {
      const known = await repo.codeOf(userId);
      if (known) return known;
      await repo.insertCode(userId, newCode());
    }
    throw new Error(`referral: no code could be made for ${userId}`);
  }

  /** Ajustes › Invitar: the code and link, who invited this person, the friends who joined and what they earned. */
  async mine(userId: string): Promise<Referral> {
    const repo = referralRepository(this.d.db);
    const [code, invited, friends] = await Promise.all([this.codeOf(userId), repo.ofFriend(userId), repo.ofReferrer(userId)]);
    const people = new Map(
      (await this.d.users.findManyByIds([...friends.map((f) => f.friendId), ...(invited ? [invited.referrerId] : [])])).map((u) => [
        u.id,
        u,
      ]),
    );
    return {
      code,
      link: `${this.d.publicUrl.replace(/\/+$/, '')}/sign-up?ref=${code}`,
      invitedBy: invited
        ? { firstName: people.get(invited.referrerId)?.firstName ?? 'Un colega', joinedAt: invited.joinedAt.toISOString() }
        : null,
      friends: friends.map((f) => ({
        id: f.id,
        firstName: people.get(f.friendId)?.firstName ?? 'Cuenta eliminada',
        email: maskEmail(people.get(f.friendId)?.email ?? ''),
        joinedAt: f.joinedAt.toISOString(),
        // A month off placed is a fact on the provider, whatever came after it.
        status: f.refusedAt && !f.creditItemId ? 'refused' : f.rewardedAt ? 'rewarded' : 'joined',
        refusedReason: f.refusedAt && !f.creditItemId ? f.refusedReason : null,
        reward:
          f.refusedAt && !f.creditItemId
            ? null
            : f.rewardedAt
              ? f.creditItemId
                ? { amount: f.creditAmount ?? 0, state: 'applied' }
                : { amount: 0, state: 'waiting_plan' }
              : null,
      })),
      earned: friends.reduce((a, f) => a + (f.creditItemId ? (f.creditAmount ?? 0) : 0), 0),
    };
  }

  /** The sign-up page's welcome: whose code it is. */
  async inviter(code: string): Promise<ReferralInviter> {
    const referrerId = await referralRepository(this.d.db).ownerOfCode(code);
    const [referrer] = referrerId ? await this.d.users.findManyByIds([referrerId]) : [];
    if (!referrer) throw new AppError('referral_code_not_found');
    return { firstName: referrer.firstName };
  }

  /**
   * A new account made with a code, in the sign-up transaction, its personal workspace just made: the
   * friend's free month. An unknown code, or one of the same mailbox, refuses the sign-up on its field
   * (the form keeps what was typed).
   */
  async joinAtSignUp(tx: DbOrTx, friend: { id: string; email: string }, workspaceId: string, code: string): Promise<void> {
    const referrerId = await this.referrerOf(code, friend, 'referralCode', tx);
    const row = await referralRepository(tx).insert({ referrerId, friendId: friend.id, workspaceId });
    if (row) await this.d.workspaces.extendTrial(workspaceId, { days: REFERRAL_FRIEND_DAYS }, 'referral', tx);
  }

  /**
   * A code entered later by someone with an account, for a workspace they own: only if no workspace they
   * own ever had a plan (our rows, and the provider's customers: Stripe keeps what we might not).
   */
  async redeem(m: Membership, userId: string, code: string): Promise<{ freeTrialEnd: string }> {
    if (!m.isOwner) throw new AppError('access_denied');
    const [me] = await this.d.users.findManyByIds([userId]);
    if (!me) throw new AppError('user_not_found');
    const repo = referralRepository(this.d.db);
    if (await repo.ofFriend(userId)) throw new AppError('referral_already_used');
    const referrerId = await this.referrerOf(code, me, 'code', this.d.db);
    const owned = await this.d.workspaces.ownedBy(userId);
    if (await repo.everSubscribed(owned)) throw new AppError('referral_not_eligible');
    for (const customerId of await repo.customersOf(owned))
      if (this.d.billing && (await this.d.billing.hasHadSubscription(customerId))) throw new AppError('referral_not_eligible');
    const until = await this.d.db.transaction(async (tx) => {
      const row = await referralRepository(tx).insert({ referrerId, friendId: userId, workspaceId: m.workspaceId });
      if (!row) throw new AppError('referral_already_used');
      return this.d.workspaces.extendTrial(m.workspaceId, { days: REFERRAL_FRIEND_DAYS }, 'referral', tx);
    });
    return { freeTrialEnd: until.toISOString() };
  }

  /**
   * A code brought before the account exists (a sign-up through Google or Apple, when it starts): refused
   * at once when no one owns it, as the email sign-up would, rather than after the provider's round trip.
   */
  async assertCodeExists(code: string, field = 'referralCode'): Promise<void> {
    const referrerId = await referralRepository(this.d.db).ownerOfCode(code);
    if (!referrerId || !(await this.d.users.findById(referrerId, this.d.db)))
      throw new AppError('referral_code_not_found', [{ path: field, message: 'Ese código de invitación no existe' }]);
  }

  private async referrerOf(code: string, friend: { id: string; email: string }, field: string, db: DbOrTx): Promise<string> {
    const referrerId = await referralRepository(db).ownerOfCode(code);
    if (!referrerId) throw new AppError('referral_code_not_found', [{ path: field, message: 'Ese código de invitación no existe' }]);
    // In the caller's transaction (sign-up's): PGlite's one connection would wait for it otherwise.
    const referrer = await this.d.users.findById(referrerId, db);
    if (!referrer) throw new AppError('referral_code_not_found', [{ path: field, message: 'Ese código de invitación no existe' }]);
    if (referrerId === friend.id || mailboxOf(referrer.email) === mailboxOf(friend.email))
      throw new AppError('referral_self', [{ path: field, message: 'Ese código es tuyo: compártelo con un colega' }]);
    return referrerId;
  }

  /**
   * A charge paid (`invoice.paid`): when it is the first non-zero one of a referred friend's workspace,
   * the referrer earns their month off (once: the update only sets an unset reward) and it is placed —
   * unless that charge was paid with one of the referrer's own cards: then the friend is the referrer
   * under another account, and the referral is refused for good (the friend keeps the trial's 30 days).
   */
  async chargePaid(providerInvoiceId: string): Promise<'rewarded' | string> {
    const billing = this.d.billing;
    if (!billing) return 'billing not configured';
    const fact = await billing.retrieveInvoice(providerInvoiceId);
    if (fact.status !== 'paid' || fact.amountPaid <= 0) return 'nothing charged';
    const workspaceId = await billingRepository(this.d.db).workspaceOfCustomer(fact.customerId);
    if (!workspaceId) return 'unknown customer';
    const friendId = await this.d.workspaces.ownerOf(workspaceId);
    const repo = referralRepository(this.d.db);
    const referral = await repo.ofFriend(friendId);
    if (!referral) return 'not referred';
    if (referral.refusedAt) return 'refused';
    if (referral.rewardedAt) {
      // Earned before: a replay, or a later charge. Its credit may still wait (the provider failed then).
      await this.placeCredits(referral.referrerId);
      return 'already rewarded';
    }
    // Replays at once each ask the provider and find the same; the updates below are each other's
    // conditions (a reward only where unrefused, a refusal only where unearned), so the first one decides.
    if (await this.paidWithReferrersCard(referral, fact.id)) {
      if (await repo.markRefused(referral.id, { reason: 'same_card', providerInvoiceId: fact.id, at: this.d.clock() }, 'unearned'))
        this.logRefused(referral, fact.id, 'at the friend’s first charge');
      return 'refused';
    }
    if (!(await repo.markRewarded(referral.id, fact.id, this.d.clock()))) return 'already rewarded';
    await this.placeCredits(referral.referrerId, referral.id);
    return 'rewarded';
  }

  /**
   * Whether the friend's charge was paid with a card the referrer holds: the fingerprint of the card that
   * paid the provider's invoice (Stripe's `card.fingerprint`, the same for one card number on every customer
   * of the platform account) among those of the cards saved on the customers of the workspaces the
   * referrer owns. The provider unable to tell — no card it can name for the charge, an error — proves
   * nothing, and the reward is not refused on a guess: it is logged and earned. The same mailbox was already
   * refused at the code; this second check is worth less than a colleague wrongly denied a month they did
   * earn, and than a friend's `invoice.paid` failing (so redelivered) for as long as the provider does.
   */
  private async paidWithReferrersCard(referral: ReferralRow, providerInvoiceId: string): Promise<boolean> {
    const billing = this.d.billing;
    if (!billing) return false;
    const about = { referralId: referral.id, invoiceId: providerInvoiceId };
    try {
      const paidWith = await billing.invoiceCardFingerprints(providerInvoiceId);
      if (paidWith.length === 0) {
        this.d.log.warn(about, 'referral: the provider names no card for the friend’s charge; the month off is not refused');
        return false;
      }
      const customers = await referralRepository(this.d.db).customersOf(await this.d.workspaces.ownedBy(referral.referrerId));
      for (const customerId of customers) {
        const cards = await billing.cardFingerprints(customerId);
        if (cards.some((c) => paidWith.includes(c))) return true;
      }
      return false;
    } catch (err) {
      this.d.log.error({ err, ...about }, 'referral: the cards could not be compared; the month off is not refused');
      return false;
    }
  }

  private logRefused(referral: ReferralRow, providerInvoiceId: string, when: string) {
    this.d.log.warn(
      { referralId: referral.id, referrerId: referral.referrerId, friendId: referral.friendId, invoiceId: providerInvoiceId, when },
      'referral: refused as a self-referral, the friend paid with the referrer’s card',
    );
  }

  /** After a workspace's subscription changed: a month off its owner earned without a plan goes on it now. */
  async subscriptionChanged(workspaceId: string): Promise<void> {
    const ownerId = await this.d.workspaces.ownerOf(workspaceId);
    if ((await referralRepository(this.d.db).uncredited(ownerId)).length > 0) await this.placeCredits(ownerId);
  }

  /**
   * Each month off earned and not yet placed goes on the next invoice of a subscription in force of a
   * workspace the referrer owns (none: it waits for one). The provider's key is the referral's, so two
   * placements at once, or one retried, make one line. One that waited is checked again first: a referrer
   * who had no card when the friend paid may now pay with the friend's (`checked`: just compared, not again).
   */
  private async placeCredits(referrerId: string, checked?: string): Promise<void> {
    const billing = this.d.billing;
    if (!billing) return;
    const repo = referralRepository(this.d.db);
    const pending = await repo.uncredited(referrerId);
    if (pending.length === 0) return;
    const subs = (await repo.subscriptionsOf(await this.d.workspaces.ownedBy(referrerId))).filter(takesCredit);
    const sub = subs.sort((a, b) => monthOf(b) - monthOf(a))[0];
    if (!sub) return;
    const customerId = await billingRepository(this.d.db).customerOf(sub.workspaceId);
    if (!customerId) return;
    const friends = new Map((await this.d.users.findManyByIds(pending.map((p) => p.friendId))).map((u) => [u.id, u.firstName]));
    for (const referral of pending) {
      if (referral.id !== checked && referral.rewardInvoiceId && (await this.paidWithReferrersCard(referral, referral.rewardInvoiceId))) {
        const refusal = { reason: 'same_card' as const, providerInvoiceId: referral.rewardInvoiceId, at: this.d.clock() };
        if (await referralRepository(this.d.db).markRefused(referral.id, refusal, 'uncredited'))
          this.logRefused(referral, referral.rewardInvoiceId, 'before its month off was placed');
        continue;
      }
      await this.placeCredit(referral, sub, customerId, friends.get(referral.friendId) ?? 'un colega');
    }
  }

  private async placeCredit(
    referral: ReferralRow,
    sub: { workspaceId: string; subscriptionId: string; interval: 'month' | 'year'; unitAmount: number; quantity: number },
    customerId: string,
    friendName: string,
  ) {
    const amount = monthOf(sub);
    try {
      const itemId = await placeCreditLine(this.d.billing!, {
        customerId,
        subscriptionId: sub.subscriptionId,
        cents: amount,
        description: `Un mes gratis por invitar a ${friendName}`,
        metadata: { divan_referral: referral.id },
        idempotencyKey: `divan-referral-credit:${referral.id}`,
      });
      await referralRepository(this.d.db).markCredited(referral.id, {
        amount,
        itemId,
        workspaceId: sub.workspaceId,
        at: this.d.clock(),
      });
    } catch (err) {
      // Earned and kept: placed at the next charge or change of the referrer's plan.
      this.d.log.error({ err, referralId: referral.id }, 'referral: the month off could not be placed on the subscription');
    }
  }
}
