// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BillingDetailsResponse, BillingSubscription, DivanInvoiceSummary } from '@divan/core';
import { renderScreen } from '@/test/render';
import { billingOverviewKey } from '../api/plans-api';
import { paymentsTexts } from '../utils/billing-details';
import { enter, leave, overviewOf, stubRoutes, WID, workspaceOf } from './plans-test-kit';
import { PaymentsSettingsRoute } from './payments-settings-route';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  leave();
});

const DETAILS = `/workspaces/${WID}/billing/details`;
const INVOICES = `GET /workspaces/${WID}/billing/invoices`;
const PORTAL = `POST /workspaces/${WID}/billing/portal`;

const subscription: BillingSubscription = {
  planId: 'advance',
  interval: 'month',
  status: 'active',
  quantity: 1,
  unitAmount: 2900,
  currentPeriodEnd: '2027-01-03T11:00:00.000Z',
  cancelAtPeriodEnd: false,
  paidPlan: null,
  scheduledChange: null,
};
const none: BillingDetailsResponse = { details: null, tax: null, vatCheck: null };
const saved: BillingDetailsResponse = {
  details: {
    name: 'Alba Ruiz Sanz',
    country: 'ES',
    taxId: '12345678Z',
    vatId: null,
    line1: 'Calle Mayor 1',
    city: 'Madrid',
    postalCode: '28001',
    email: null,
  },
  tax: { case: 'spain', vatRate: 21, legend: null },
  vatCheck: null,
};
const invoiceOf = (o: Partial<DivanInvoiceSummary> = {}): DivanInvoiceSummary => ({
  id: '3b0f6a52-2c1e-4d8a-9f3b-7e5d4c3b2a10',
  number: 'D2026-0002',
  issueDate: '2026-12-03',
  description: 'Diván Premium mensual · 1 usuario',
  subtotal: 2900,
  vat: 609,
  total: 3509,
  vatRate: 21,
  ...o,
});

// Testing Library normalises the no-break space of «35,09 €» when matching text; textContent keeps it.
const text = (el: HTMLElement) => (el.textContent ?? '').replace(/\u00a0/g, ' ');
const form = () => within(screen.getByRole('form', { name: 'Datos de facturación de Diván' }));

function open(overview = overviewOf({ subscription })) {
  return renderScreen(<PaymentsSettingsRoute />, { route: '/settings/payments', queries: [[billingOverviewKey(WID), overview]] });
}

describe('Ajustes › Pagos for who may not manage the plan', () => {
  it('says whose page this is, and asks nothing of the billing data or the invoices', () => {
    enter(workspaceOf({ isOwner: false, me: { memberId: 'm-2', isAdmin: false, permissions: [] } }));
    const api = stubRoutes({});
    open(overviewOf({ canManage: false }));
    expect(screen.getByRole('heading', { name: 'Pagos' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: paymentsTexts.notManager })).toBeTruthy();
    expect(screen.getByText(/los gestiona Alba o quien tenga permiso/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Gestionar tarjetas/ })).toBeNull();
    expect(screen.queryByRole('form')).toBeNull();
    expect(api.requests).toEqual([]);
  });
});

describe('Ajustes › Pagos: the billing data', () => {
  it('checks the data with core’s Spanish messages before asking anything, then saves them and shows the tax', async () => {
    enter();
    const api = stubRoutes({
      [`GET ${DETAILS}`]: [200, none],
      [INVOICES]: [200, { items: [] }],
      [`PUT ${DETAILS}`]: [200, saved],
    });
    const { user } = open();
    await screen.findByRole('form', { name: 'Datos de facturación de Diván' });
    // Spain is chosen; nothing typed yet.
    expect((form().getByLabelText('País') as HTMLSelectElement).value).toBe('ES');
    expect(screen.queryByTestId('divan-tax')).toBeNull();
    await user.click(form().getByRole('button', { name: 'Guardar datos' }));
    expect(await form().findByText('El campo nombre o razón social es obligatorio')).toBeTruthy();
    expect(form().getByText('Escribe el NIF, NIE o CIF')).toBeTruthy();
    expect(form().getByText('El campo dirección es obligatorio')).toBeTruthy();
    expect(form().getByText('El campo ciudad es obligatorio')).toBeTruthy();
    expect(form().getByText('El campo código postal es obligatorio')).toBeTruthy();

    await user.type(form().getByLabelText('Nombre o razón social'), 'Alba Ruiz Sanz');
    await user.type(form().getByLabelText('NIF, NIE o CIF'), '12345678A');
    await user.type(form().getByLabelText('Dirección'), 'Calle Mayor 1');
    await user.type(form().getByLabelText('Código postal'), '2800');
    await user.type(form().getByLabelText('Ciudad'), 'Madrid');
    await user.type(form().getByLabelText('Email para las facturas (opcional)'), 'alba@');
    await user.click(form().getByRole('button', { name: 'Guardar datos' }));
    expect(await form().findByText('El NIF o CIF no es válido: revisa el carácter de control.')).toBeTruthy();
    expect(form().getByText('El código postal español tiene 5 cifras')).toBeTruthy();
    expect(form().getByText('El email no es válido')).toBeTruthy();
    // The field says it is wrong, and which message explains it.
    const nif = form().getByLabelText('NIF, NIE o CIF');
    expect(nif.getAttribute('aria-invalid')).toBe('true');
    expect(api.requests.filter((r) => r.route.startsWith('PUT'))).toEqual([]);

    await user.clear(nif);
    await user.type(nif, '12345678-z');
    await user.type(form().getByLabelText('Código postal'), '1');
    await user.clear(form().getByLabelText('Email para las facturas (opcional)'));
    await user.click(form().getByRole('button', { name: 'Guardar datos' }));
    await waitFor(() => expect(screen.getByTestId('divan-tax')).toBeTruthy());
    expect(text(screen.getByTestId('divan-tax'))).toBe('Las facturas de Diván llevarán IVA del 21 %.');
    // What core's schema made of it: the NIF without its dash, in capitals; no email is the owner's.
    expect(api.requests.find((r) => r.route === `PUT ${DETAILS}`)?.body).toEqual({
      name: 'Alba Ruiz Sanz',
      country: 'ES',
      taxId: '12345678Z',
      vatId: null,
      line1: 'Calle Mayor 1',
      city: 'Madrid',
      postalCode: '28001',
      email: null,
    });
    // Saved: nothing left to save until something changes.
    expect((form().getByRole('button', { name: 'Guardar datos' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('asks the NIF-IVA of a business elsewhere in the EU, checks its prefix, and shows the legend of an invoice without IVA', async () => {
    enter();
    const reverse: BillingDetailsResponse = {
      details: { ...saved.details!, country: 'FR', taxId: null, vatId: 'FR40303265045', postalCode: '75001', city: 'París' },
      tax: { case: 'reverse_charge', vatRate: 0, legend: 'Inversión del sujeto pasivo' },
      vatCheck: { status: 'verified', verifiedName: 'SOCIETE DU CABINET', checkedAt: '2026-12-03T10:00:00.000Z' },
    };
    const api = stubRoutes({
      [`GET ${DETAILS}`]: [200, saved],
      [INVOICES]: [200, { items: [] }],
      [`PUT ${DETAILS}`]: [200, reverse],
    });
    const { user } = open();
    await screen.findByRole('form', { name: 'Datos de facturación de Diván' });
    expect(text(screen.getByTestId('divan-tax'))).toBe('Las facturas de Diván llevarán IVA del 21 %.');
    // Spain asks no NIF-IVA.
    expect(form().queryByLabelText('NIF-IVA (opcional)')).toBeNull();
    await user.selectOptions(form().getByLabelText('País'), 'FR');
    expect(form().getByLabelText('Número de identificación fiscal')).toBeTruthy();
    await user.type(form().getByLabelText('NIF-IVA (opcional)'), 'DE123456789');
    await user.clear(form().getByLabelText('Código postal'));
    await user.type(form().getByLabelText('Código postal'), '75001');
    await user.click(form().getByRole('button', { name: 'Guardar datos' }));
    expect(await form().findByText('El NIF-IVA no es válido para ese país: empieza por FR y sigue con el número')).toBeTruthy();
    expect(api.count(`PUT ${DETAILS}`)).toBe(0);

    await user.clear(form().getByLabelText('NIF-IVA (opcional)'));
    await user.type(form().getByLabelText('NIF-IVA (opcional)'), 'fr 40 303 265 045');
    await user.click(form().getByRole('button', { name: 'Guardar datos' }));
    await waitFor(() => expect(text(screen.getByTestId('divan-tax'))).toContain('sin IVA'));
    expect(text(screen.getByTestId('divan-tax'))).toBe('Las facturas de Diván irán sin IVA, con la mención «Inversión del sujeto pasivo».');
    expect(api.requests.find((r) => r.route === `PUT ${DETAILS}`)?.body).toMatchObject({ country: 'FR', vatId: 'FR40303265045' });
    expect(text(screen.getByTestId('vat-check'))).toBe('NIF-IVA comprobado en VIES: SOCIETE DU CABINET.');
  });

  it('puts the server’s field errors next to their fields, and its other refusals above the form', async () => {
    enter();
    const api = stubRoutes({
      [`GET ${DETAILS}`]: [200, saved],
      [INVOICES]: [200, { items: [] }],
      [`PUT ${DETAILS}`]: (_body, n) =>
        n === 1
          ? [
              422,
              {
                code: 'invalid_argument',
                message: 'Revisa los datos',
                fields: [{ path: 'body.taxId', message: 'Ese NIF no consta en el censo' }],
              },
            ]
          : [403, { code: 'forbidden', message: 'No tienes permiso para gestionar la facturación del espacio' }],
    });
    const { user } = open();
    await screen.findByRole('form', { name: 'Datos de facturación de Diván' });
    await user.clear(form().getByLabelText('Ciudad'));
    await user.type(form().getByLabelText('Ciudad'), 'Alcalá de Henares');
    await user.click(form().getByRole('button', { name: 'Guardar datos' }));
    expect(await form().findByText('Ese NIF no consta en el censo')).toBeTruthy();
    expect(document.activeElement).toBe(form().getByLabelText('NIF, NIE o CIF'));
    await user.click(form().getByRole('button', { name: 'Guardar datos' }));
    expect(await form().findByText('No tienes permiso para gestionar la facturación del espacio')).toBeTruthy();
    expect(api.count(`PUT ${DETAILS}`)).toBe(2);
  });

  it('says when the billing data could not be read, and reads them again', async () => {
    enter();
    const api = stubRoutes({
      [`GET ${DETAILS}`]: (_b, n) => (n === 1 ? [500, { code: 'internal_error', message: 'Error interno del servidor' }] : [200, saved]),
      [INVOICES]: [200, { items: [] }],
    });
    const { user } = open();
    expect(await screen.findByText('No se pudo cargar los datos de facturación. Error interno del servidor')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Reintentar/ }));
    expect(((await form().findByLabelText('Nombre o razón social')) as HTMLInputElement).value).toBe('Alba Ruiz Sanz');
    expect(api.count(`GET ${DETAILS}`)).toBe(2);
  });
});

describe('Ajustes › Pagos: the cards', () => {
  it('«Gestionar tarjetas» opens the provider’s portal; a refusal shows in place', async () => {
    enter();
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const api = stubRoutes({
      [`GET ${DETAILS}`]: [200, saved],
      [INVOICES]: [200, { items: [] }],
      [PORTAL]: (_body, n) =>
        n === 1
          ? [503, { code: 'billing_unavailable', message: 'Los pagos de Diván no están disponibles en este servidor todavía.' }]
          : [200, { url: 'https://billing.stripe.test/p/session/test_1' }],
    });
    const { user } = open();
    await user.click(screen.getByRole('button', { name: 'Gestionar tarjetas' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Los pagos de Diván no están disponibles en este servidor todavía.');
    await user.click(screen.getByRole('button', { name: 'Gestionar tarjetas' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://billing.stripe.test/p/session/test_1'));
    expect(api.count(PORTAL)).toBe(2);
  });

  it('before a plan is bought there are no cards to manage, and it says so', () => {
    enter();
    stubRoutes({ [`GET ${DETAILS}`]: [200, none], [INVOICES]: [200, { items: [] }] });
    open(overviewOf());
    const button = screen.getByRole('button', { name: 'Gestionar tarjetas' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(document.getElementById(button.getAttribute('aria-describedby') ?? '')?.textContent).toBe(paymentsTexts.noCustomer);
  });
});

describe('Ajustes › Pagos: Diván’s invoices', () => {
  it('lists them newest first with their number, date, amounts and tax, and downloads each PDF', async () => {
    enter();
    const older = invoiceOf({
      id: '9d2c4b1a-7e6f-4a3b-8c2d-1e0f9a8b7c6d',
      number: 'D2026-0001',
      issueDate: '2026-11-03',
      subtotal: 2900,
      vat: 0,
      total: 2900,
      vatRate: 0,
    });
    const json = stubRoutes({
      [`GET ${DETAILS}`]: [200, saved],
      [INVOICES]: [200, { items: [invoiceOf(), older] }],
    });
    // The PDF is not JSON: answered here, the rest by the routes above.
    const pdfs: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
        const path = new URL(String(url), 'http://localhost').pathname;
        if (!path.endsWith('/pdf')) return json.server(url, init);
        pdfs.push(path);
        // A string body: jsdom's Blob is not the one Node's Response reads.
        return new Response('%PDF-1.7', {
          status: 200,
          headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="divan-D2026-0002.pdf"' },
        });
      }),
    );
    Object.defineProperty(URL, 'createObjectURL', { value: vi.fn(() => 'blob:divan'), configurable: true });
    Object.defineProperty(URL, 'revokeObjectURL', { value: vi.fn(), configurable: true });
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    const { user } = open();

    const list = within(await screen.findByRole('list', { name: 'Facturas de Diván' }));
    const rows = list.getAllByTestId('divan-invoice');
    expect(rows.map((r) => within(r).getByText(/^D2026-/).textContent)).toEqual(['D2026-0002', 'D2026-0001']);
    expect(text(rows[0]!)).toContain('03/12/2026');
    expect(text(rows[0]!)).toContain('Diván Premium mensual · 1 usuario');
    expect(text(within(rows[0]!).getByTestId('divan-invoice-total'))).toBe('35,09 €');
    expect(text(rows[0]!)).toContain('29,00 € + 6,09 € de IVA (21 %)');
    expect(text(rows[1]!)).toContain('03/11/2026');
    expect(text(rows[1]!)).toContain('Sin IVA');

    await user.click(list.getByRole('button', { name: 'Descargar el PDF de la factura D2026-0002' }));
    await waitFor(() => expect(clicked).toEqual(['divan-D2026-0002.pdf']));
    expect(pdfs).toEqual([`/api/v1/workspaces/${WID}/billing/invoices/${invoiceOf().id}/pdf`]);
  });

  it('says there are none yet, when there are none', async () => {
    enter();
    stubRoutes({ [`GET ${DETAILS}`]: [200, saved], [INVOICES]: [200, { items: [] }] });
    open();
    expect((await screen.findByTestId('no-invoices')).textContent).toBe(`${paymentsTexts.noInvoices}.`);
    expect(screen.queryByRole('list', { name: 'Facturas de Diván' })).toBeNull();
  });

  it('says when they could not be read, and reads them again', async () => {
    enter();
    const api = stubRoutes({
      [`GET ${DETAILS}`]: [200, saved],
      [INVOICES]: (_b, n) =>
        n === 1 ? [500, { code: 'internal_error', message: 'Error interno del servidor' }] : [200, { items: [invoiceOf()] }],
    });
    const { user } = open();
    expect(await screen.findByText('No se pudo cargar las facturas de Diván. Error interno del servidor')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Reintentar/ }));
    expect(await screen.findByRole('button', { name: 'Descargar el PDF de la factura D2026-0002' })).toBeTruthy();
    expect(api.count(INVOICES)).toBe(2);
  });
});
