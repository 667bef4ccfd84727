import { defineModule } from '../../platform/modules/define-module';
import { companionBillingRoutes } from './companion-billing.routes';
import { CompanionCardService } from './companion-card.service';
import { CompanionConsentsService } from './companion-consents.service';
import { CompanionInvoicesService } from './companion-invoices.service';

/** The companion's consents, invoices and saved card (issue 15), under `/api/v1/patient/files/:id`. */
export const companionBillingModule = defineModule({
  name: 'companion-billing',
  needs: ['patientAccounts', 'consentSigning', 'invoices', 'payments', 'users', 'workspaces'],
  build: (d, p) => {
    const publicUrl = p.config.publicUrl;
    const consents = new CompanionConsentsService({ accounts: d.patientAccounts, signing: d.consentSigning, clock: p.clock });
    const invoices = new CompanionInvoicesService({
      accounts: d.patientAccounts,
      invoices: d.invoices,
      payLinks: d.payments.payLinks,
      paymentAccounts: d.payments.accounts,
      workspaces: d.workspaces,
      publicUrl,
    });
    const card = new CompanionCardService({
      accounts: d.patientAccounts,
      cards: d.payments.cards,
      paymentAccounts: d.payments.accounts,
      users: d.users,
      publicUrl,
    });
    return { provides: {}, routes: (app) => app.register(companionBillingRoutes, { consents, invoices, card }) };
  },
});
