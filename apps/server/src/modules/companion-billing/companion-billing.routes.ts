import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  companionAutoChargeBody,
  companionCardResponse,
  companionConsentParams,
  companionConsentsResponse,
  companionDownloadQuery,
  companionInvoiceParams,
  companionInvoicesResponse,
  companionUrlResponse,
  patientFileParams,
} from '@divan/core';
import { contentDisposition } from '../../platform/http/content-disposition';
import type { CompanionCardService } from './companion-card.service';
import type { CompanionConsentsService } from './companion-consents.service';
import type { CompanionInvoicesService } from './companion-invoices.service';

const tags = ['companion'];
const F = '/api/v1/patient/files/:patientFileId';
const patient = { access: 'patient' as const };

function sendPdf(reply: FastifyReply, name: string, pdf: Buffer, disposition: 'attachment' | 'inline') {
  reply.header('content-disposition', contentDisposition(name, disposition));
  reply.header('cache-control', 'private, no-store');
  reply.header('x-content-type-options', 'nosniff');
  return reply.type('application/pdf').send(pdf);
}

/**
 * The companion's consents to sign, invoices to pay and saved card (issue 15), in the patients' realm.
 * Every route is scoped to a file connected to the account and still live: 404 `patient_file_not_found` otherwise.
 */
export async function companionBillingRoutes(
  app: FastifyInstance,
  d: { consents: CompanionConsentsService; invoices: CompanionInvoicesService; card: CompanionCardService },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const me = (req: { patient?: { accountId: string } }) => req.patient!.accountId;

  r.get(
    `${F}/consents`,
    {
      config: patient,
      schema: {
        operationId: 'listPatientOwnConsents',
        tags,
        description: 'The consents of the file the account signs (its email, else the patient signer), newest first.',
        params: patientFileParams,
        response: { 200: companionConsentsResponse },
      },
    },
    (req) => d.consents.list(me(req), req.params.patientFileId),
  );
  r.post(
    `${F}/consents/:envelopeId/sign-link`,
    {
      config: patient,
      schema: {
        operationId: 'patientOwnConsentSignLink',
        tags,
        description:
          "The signing page (`/consents/sign/<token>`) of the account's signer, the same link its mail carries, while the consent waits for that signature and its turn has come (`consent_already_signed`, `companion_consent_not_your_turn`, `companion_consent_expired`, `companion_consent_not_signable`).",
        params: companionConsentParams,
        response: { 200: companionUrlResponse },
      },
    },
    (req) => d.consents.signLink(me(req), req.params.patientFileId, req.params.envelopeId),
  );
  r.get(
    `${F}/consents/:envelopeId/download`,
    {
      config: patient,
      schema: {
        operationId: 'downloadPatientOwnConsent',
        tags,
        description: 'The sealed PDF once every signature is in (`companion_consent_not_completed` before).',
        params: companionConsentParams,
        querystring: companionDownloadQuery,
      },
    },
    async (req, reply) => {
      const file = await d.consents.pdf(me(req), req.params.patientFileId, req.params.envelopeId);
      return sendPdf(reply, file.name, file.pdf, req.query.disposition);
    },
  );

  r.get(
    `${F}/invoices`,
    {
      config: patient,
      schema: {
        operationId: 'listPatientOwnInvoices',
        tags,
        description: "The file's issued (and voided) invoices, latest first; never a draft. `payable`: it can be paid by card now.",
        params: patientFileParams,
        response: { 200: companionInvoicesResponse },
      },
    },
    (req) => d.invoices.list(me(req), req.params.patientFileId),
  );
  r.get(
    `${F}/invoices/:invoiceId/pdf`,
    {
      config: patient,
      schema: {
        operationId: 'downloadPatientOwnInvoice',
        tags,
        description: 'The invoice PDF, the same the therapist downloads.',
        params: companionInvoiceParams,
        querystring: companionDownloadQuery,
      },
    },
    async (req, reply) => {
      const file = await d.invoices.pdf(me(req), req.params.patientFileId, req.params.invoiceId);
      return sendPdf(reply, file.filename, file.pdf, req.query.disposition);
    },
  );
  r.post(
    `${F}/invoices/:invoiceId/pay`,
    {
      config: patient,
      schema: {
        operationId: 'payPatientOwnInvoice',
        tags,
        description:
          "A card checkout for the invoice on its seller's account, back to `/p/<file>/facturas?estado=pagado`; the webhook marks it paid (`companion_invoice_paid`, `companion_invoice_not_payable`).",
        params: companionInvoiceParams,
        response: { 200: companionUrlResponse },
      },
    },
    (req) => d.invoices.pay(me(req), req.params.patientFileId, req.params.invoiceId),
  );

  r.get(
    `${F}/card`,
    {
      config: patient,
      schema: {
        operationId: 'getPatientOwnCard',
        tags,
        description: "The card saved on the account of the file's therapist, and «cobros automáticos».",
        params: patientFileParams,
        response: { 200: companionCardResponse },
      },
    },
    (req) => d.card.get(me(req), req.params.patientFileId),
  );
  r.post(
    `${F}/card/setup`,
    {
      config: patient,
      schema: {
        operationId: 'setupPatientOwnCard',
        tags,
        description:
          'A checkout in setup mode to save or replace the card, back to `/p/<file>/facturas?estado=tarjeta` (`companion_card_not_available`).',
        params: patientFileParams,
        response: { 200: companionUrlResponse },
      },
    },
    (req) => d.card.setup(me(req), req.params.patientFileId),
  );
  r.put(
    `${F}/card/auto-charge`,
    {
      config: patient,
      schema: {
        operationId: 'setPatientOwnAutoCharge',
        tags,
        description: '«Cobros automáticos» on or off (`companion_card_not_saved` before a card was ever set up).',
        params: patientFileParams,
        body: companionAutoChargeBody,
        response: { 200: companionCardResponse },
      },
    },
    (req) => d.card.setAutoCharge(me(req), req.params.patientFileId, req.body.enabled),
  );
  r.delete(
    `${F}/card`,
    {
      config: patient,
      schema: {
        operationId: 'removePatientOwnCard',
        tags,
        description: 'Forgets the saved card (detached at the provider too).',
        params: patientFileParams,
        response: { 200: companionCardResponse },
      },
    },
    (req) => d.card.remove(me(req), req.params.patientFileId),
  );
}
