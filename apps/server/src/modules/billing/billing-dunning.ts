import { formatCents } from '@divan/core';
import type { PlatformBilling } from '../../platform/billing/platform-billing';
import type { Db } from '../../platform/db/database';
import { renderMail, type Mail } from '../../platform/mail/layout';
import type { Mailer } from '../../platform/mail/mailer';
import type { UsersService } from '../users/users.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { billingRepository } from './billing.repository';

export function renewalFailedMail(to: string, firstName: string, o: { workspace: string; amount: string; url: string }): Mail {
  return renderMail({
    to,
    subject: 'No hemos podido cobrar tu plan de Diván',
    greeting: `Hola, ${firstName}:`,
    blocks: [
      {
        kind: 'p',
        text: `No hemos podido cobrar la renovación del plan de ${o.workspace} (${o.amount}): el banco ha rechazado la tarjeta.`,
      },
      {
        kind: 'p',
        text: 'Lo intentaremos de nuevo durante los próximos 7 días y mientras tanto todo sigue igual. Si no se cobra, el espacio pasará a las funciones de Basic (no se borra nada) hasta que se pague.',
      },
      { kind: 'button', url: o.url, label: 'Cambiar la tarjeta' },
    ],
    footer: 'Si ya has cambiado la tarjeta, ignora este mensaje: la usaremos en el próximo intento.',
  });
}

/**
 * A declined renewal (`invoice.payment_failed`): the workspace's owner is mailed once per invoice, at
 * its first failure (the outbox's key); the retries and the fall to Basic are the provider's
 * (`customer.subscription.updated`: `past_due` keeps the plan, `unpaid` ends it until it is paid).
 */
export class BillingDunning {
  constructor(
    private readonly d: {
      db: Db;
      billing: PlatformBilling | null;
      mailer: Mailer;
      users: UsersService;
      workspaces: WorkspacesService;
      publicUrl: string;
    },
  ) {}

  async paymentFailed(providerInvoiceId: string): Promise<string> {
    if (!this.d.billing) return 'billing not configured';
    const fact = await this.d.billing.retrieveInvoice(providerInvoiceId);
    if (fact.status !== 'open') return `invoice ${fact.status}`;
    const workspaceId = await billingRepository(this.d.db).workspaceOfCustomer(fact.customerId);
    if (!workspaceId) return 'unknown customer';
    const ownerId = await this.d.workspaces.ownerOf(workspaceId);
    const [owner] = await this.d.users.findManyByIds([ownerId]);
    if (!owner) return 'no owner';
    const name = (await this.d.workspaces.nameOf(workspaceId)) ?? 'tu espacio';
    const url = `${this.d.publicUrl.replace(/\/+$/, '')}/settings/payments`;
    const mail = renewalFailedMail(owner.email, owner.firstName, { workspace: name, amount: formatCents(fact.total), url });
    await this.d.mailer.send(mail, { key: `billing-renewal-failed:${fact.id}`, purpose: 'billing', workspaceId });
    return 'mailed';
  }
}
