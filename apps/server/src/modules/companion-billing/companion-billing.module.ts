import type { FastifyInstance } from 'fastify';
import type { ConsentSigningService } from '../consents/consent-signing.service';
import type { InvoicesService } from '../invoices/invoices.service';
import type { PatientAccountsService } from '../patient-accounts/patient-accounts.service';
import type { InvoicePayLinks } from '../payments/invoice-pay-links.service';
import type { PatientCards } from '../payments/patient-cards.service';
import type { PaymentAccounts } from '../payments/payment-accounts.service';
import type { UsersService } from '../users/users.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { companionBillingRoutes } from './companion-billing.routes';
import { CompanionCardService } from './companion-card.service';
import { CompanionConsentsService } from './companion-consents.service';
import { CompanionInvoicesService } from './companion-invoices.service';

type Deps = {
  accounts: PatientAccountsService;
  signing: ConsentSigningService;
  invoices: InvoicesService;
  payments: { accounts: PaymentAccounts; cards: PatientCards; payLinks: InvoicePayLinks };
  users: UsersService;
  workspaces: WorkspacesService;
  publicUrl: string;
  clock?: () => Date;
};

/** The companion's consents, invoices and saved card (issue 15), under `/api/v1/patient/files/:id`. */
export function wireCompanionBilling(d: Deps) {
  const consents = new CompanionConsentsService({ accounts: d.accounts, signing: d.signing, clock: d.clock });
  const invoices = new CompanionInvoicesService({
    accounts: d.accounts,
    invoices: d.invoices,
    payLinks: d.payments.payLinks,
    paymentAccounts: d.payments.accounts,
    workspaces: d.workspaces,
    publicUrl: d.publicUrl,
  });
  const card = new CompanionCardService({
    accounts: d.accounts,
    cards: d.payments.cards,
    paymentAccounts: d.payments.accounts,
    users: d.users,
    publicUrl: d.publicUrl,
  });
  const register = async (app: FastifyInstance) => {
    await app.register(companionBillingRoutes, { consents, invoices, card });
  };
  return { consents, invoices, card, register };
}
