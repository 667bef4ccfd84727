// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hasUnsavedChanges } from '@/lib/unsaved-changes';
import { renderScreen } from '@/test/render';
import { billingOverviewKey } from '../api/plans-api';
import { planTexts } from '../utils/plan-offer';
import { enter, leave, overviewOf, stubRoutes, WID, workspaceOf } from './plans-test-kit';
import { PlansRoute } from './plans-route';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  leave();
});

const support: [readonly unknown[], unknown] = [['support'], { email: 'hola@consulta.example' }];
const card = (id: 'basic' | 'advance' | 'team') => within(screen.getByTestId(`plan-${id}`));
const contratar = (id: 'basic' | 'advance') => card(id).getByRole('button', { name: 'Contratar' }) as HTMLButtonElement;

function open(overview = overviewOf(), route = '/plans') {
  return renderScreen(<PlansRoute />, { route, queries: [[billingOverviewKey(WID), overview], support] });
}

describe('/plans', () => {
  // getByText reads the no-break space of «29,00 €» as a space (its whitespace normalisation); textContent keeps it.
  it('shows the three plans with the price of the interval chosen, and the estimate for the workspace follows the toggle', async () => {
    enter();
    stubRoutes({});
    const { user } = open();
    expect(screen.getByRole('heading', { level: 1, name: 'Planes' })).toBeTruthy();
    expect(card('advance').getByRole('heading', { name: 'Premium' })).toBeTruthy();
    expect(card('team').getByText('A medida')).toBeTruthy();
    expect(card('advance').getByText('29,00 €')).toBeTruthy();
    expect(card('advance').getByText('al mes por usuario + IVA')).toBeTruthy();
    expect(card('advance').getByTestId('estimate-advance').textContent).toContain(
      '3 usuarios activos × 29,00\u00a0€ = 87,00\u00a0€ + IVA al mes',
    );
    expect(card('basic').getByTestId('estimate-basic').textContent).toContain(
      '3 usuarios activos × 19,00\u00a0€ = 57,00\u00a0€ + IVA al mes',
    );
    // The trial runs with Premium: marked there, and its days are counted.
    expect(card('advance').getByText('En prueba')).toBeTruthy();
    expect(screen.getByTestId('plan-standing').textContent).toMatch(/^Estás probando Premium: te quedan 10 días/);
    expect(screen.getByText(planTexts.testMode)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Escríbenos a hola@consulta.example' }).getAttribute('href')).toBe(
      'mailto:hola@consulta.example',
    );

    const yearly = screen.getByRole('radio', { name: /Anual/ });
    expect(yearly.textContent).toContain('2 meses gratis');
    await user.click(yearly);
    expect(yearly.getAttribute('aria-checked')).toBe('true');
    expect(card('advance').getByText('290,00 €')).toBeTruthy();
    expect(card('advance').getByText('al año por usuario + IVA')).toBeTruthy();
    expect(card('advance').getByText(/ahorras 58,00 € por usuario/)).toBeTruthy();
    expect(card('advance').getByTestId('estimate-advance').textContent).toContain(
      '3 usuarios activos × 290,00\u00a0€ = 870,00\u00a0€ + IVA al año',
    );

    // A radio group: the arrow keys move the choice (Radix checks the radio focused while the arrow is down).
    expect(document.activeElement).toBe(yearly);
    await user.keyboard('{ArrowLeft>}');
    await waitFor(() => expect(screen.getByRole('radio', { name: 'Mensual' }).getAttribute('aria-checked')).toBe('true'));
    await user.keyboard('{/ArrowLeft}');
    expect(card('advance').getByText('29,00 €')).toBeTruthy();
  });

  it('«Contratar» asks for a Checkout of that plan and interval, then sends the browser there', async () => {
    enter();
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const api = stubRoutes({
      [`POST /workspaces/${WID}/billing/checkout`]: [200, { url: 'https://checkout.stripe.test/c/pay/cs_test_1', sessionId: 'cs_test_1' }],
    });
    const { user } = open();
    await user.click(screen.getByRole('radio', { name: /Anual/ }));
    await user.click(contratar('advance'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.stripe.test/c/pay/cs_test_1'));
    expect(api.requests).toEqual([{ route: `POST /workspaces/${WID}/billing/checkout`, body: { planId: 'advance', interval: 'year' } }]);
    // Leaving: one Checkout at a time.
    expect(contratar('basic').disabled).toBe(true);
  });

  it('shows the server’s refusal on the card, and reads the billing state again', async () => {
    enter();
    const api = stubRoutes({
      [`POST /workspaces/${WID}/billing/checkout`]: [
        409,
        { code: 'therapist_already_subscribed', message: 'Este espacio ya tiene un plan contratado' },
      ],
      [`GET /workspaces/${WID}/billing`]: [200, overviewOf()],
    });
    const { user } = open();
    await user.click(contratar('basic'));
    expect((await card('basic').findByRole('alert')).textContent).toBe('Este espacio ya tiene un plan contratado');
    expect(card('advance').queryByRole('alert')).toBeNull();
    await waitFor(() => expect(api.count(`GET /workspaces/${WID}/billing`)).toBe(1));
    expect(contratar('basic').disabled).toBe(false);
  });

  it('a member who may not manage the workspace sees the plans, but «Contratar» is disabled and says why', async () => {
    enter(workspaceOf({ isOwner: false, me: { memberId: 'm-2', isAdmin: false, permissions: [] } }));
    const api = stubRoutes({});
    const { user } = open(overviewOf({ canManage: false, mode: 'live' }));
    for (const id of ['basic', 'advance'] as const) {
      expect(contratar(id).disabled).toBe(true);
      expect(card(id).getByText(planTexts.notManager)).toBeTruthy();
      expect(contratar(id).getAttribute('aria-describedby')).toBeTruthy();
    }
    await user.click(contratar('advance'));
    expect(api.server).not.toHaveBeenCalled();
    // Live mode: no sandbox notice. Team can still be asked about.
    expect(screen.queryByText(planTexts.testMode)).toBeNull();
    expect(card('team').getByRole('button', { name: 'Consultar precio' })).toBeTruthy();
  });

  it('a workspace that already pays is sent to Ajustes › Plan, with its plan marked', async () => {
    enter(
      workspaceOf({
        plan: {
          id: 'advance',
          periodEnd: '2027-12-03T12:00:00Z',
          renovationEnabled: true,
          freeTrialEnd: null,
          seats: 5,
          promptUpgrade: false,
        },
      }),
    );
    stubRoutes({});
    const subscription = {
      planId: 'advance' as const,
      interval: 'year' as const,
      status: 'active' as const,
      quantity: 3,
      unitAmount: 29000,
      currentPeriodEnd: '2027-12-03T12:00:00Z',
      cancelAtPeriodEnd: false,
      paidPlan: null,
      scheduledChange: null,
    };
    open(overviewOf({ subscription }));
    expect(card('advance').getByText('Tu plan')).toBeTruthy();
    expect(card('advance').getByText('Pago anual; se renueva el 03/12/2027.')).toBeTruthy();
    // The subscription's interval is shown first.
    expect(screen.getByRole('radio', { name: /Anual/ }).getAttribute('aria-checked')).toBe('true');
    for (const id of ['basic', 'advance'] as const) {
      const link = card(id).getByRole('link', { name: planTexts.changeInSettings });
      expect(link.getAttribute('href')).toBe('/settings/workspace/plan');
    }
    expect((card('advance').getByRole('button', { name: 'Contratado' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('plan-standing').textContent).toBe('Tu espacio tiene el plan Premium: se renueva el 03/12/2027.');
  });

  it('says calmly that a cancelled Checkout charged nothing, and the notice can be put away', async () => {
    enter();
    stubRoutes({});
    const { user } = open(overviewOf(), '/plans?canceled=1');
    expect(screen.getByText(/^Has cancelado el pago: no se ha cobrado nada/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Ocultar aviso' }));
    expect(screen.queryByText(/^Has cancelado el pago/)).toBeNull();
  });

  it('without the billing state, says it could not load it and offers to retry; the plans are still there', async () => {
    enter();
    const api = stubRoutes({
      [`GET /workspaces/${WID}/billing`]: [500, { code: 'internal_error', message: 'Error interno del servidor' }],
    });
    renderScreen(<PlansRoute />, { queries: [support] });
    expect((await screen.findByRole('alert')).textContent).toContain(
      'No se pudo cargar el estado del plan de tu espacio. Error interno del servidor',
    );
    expect(screen.getByRole('button', { name: /Reintentar/ })).toBeTruthy();
    expect(contratar('advance').disabled).toBe(true);
    expect(card('advance').queryByTestId('estimate-advance')).toBeNull();
    expect(api.count(`GET /workspaces/${WID}/billing`)).toBe(1);
  });
});

describe('/plans: «Consultar precio» of Team', () => {
  it('asks how many therapists, sends the question with topic team_plan and closes', async () => {
    enter();
    const api = stubRoutes({
      'POST /me/feedback': [201, { id: '6f1c1f43-5d5a-4c39-9a57-3c3a1d8f3b8e', createdAt: '2026-12-03T08:00:00.000Z' }],
    });
    const { user } = open();
    await user.click(card('team').getByRole('button', { name: 'Consultar precio' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Consultar el precio de Team' }, { timeout: 5000 }));
    // Nothing typed: Spanish, and nothing sent.
    await user.click(dialog.getByRole('button', { name: 'Enviar consulta' }));
    expect(await dialog.findByText('Indica cuántos terapeutas sois')).toBeTruthy();
    expect(api.requests).toEqual([]);

    await user.type(dialog.getByLabelText('¿Cuántos terapeutas sois?'), '6');
    await user.type(dialog.getByLabelText('Mensaje'), 'Tenemos dos sedes en Sevilla.');
    await user.click(dialog.getByRole('button', { name: 'Enviar consulta' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.requests).toEqual([
      {
        route: 'POST /me/feedback',
        body: {
          message: 'Consulta del plan Team para el espacio «Consulta Alba».\nTerapeutas: 6\n\nTenemos dos sedes en Sevilla.',
          page: '/plans',
          topic: 'team_plan',
        },
      },
    ]);
    expect(hasUnsavedChanges()).toBe(false);
  });

  it('shows the server’s refusal in the dialog and keeps what was typed', async () => {
    enter();
    stubRoutes({ 'POST /me/feedback': [429, { code: 'too_many_requests', message: 'Has enviado varios comentarios en poco tiempo.' }] });
    const { user } = open();
    await user.click(card('team').getByRole('button', { name: 'Consultar precio' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Consultar el precio de Team' }));
    await user.type(dialog.getByLabelText('¿Cuántos terapeutas sois?'), '12');
    await user.click(dialog.getByRole('button', { name: 'Enviar consulta' }));
    expect((await dialog.findByRole('alert')).textContent).toBe('Has enviado varios comentarios en poco tiempo.');
    expect((dialog.getByLabelText('¿Cuántos terapeutas sois?') as HTMLInputElement).value).toBe('12');
  });

  it('asks before throwing away what was typed, and closes at once when nothing was', async () => {
    enter();
    stubRoutes({});
    const { user } = open();
    await user.click(card('team').getByRole('button', { name: 'Consultar precio' }));
    let dialog = within(await screen.findByRole('dialog', { name: 'Consultar el precio de Team' }));
    await user.click(dialog.getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(card('team').getByRole('button', { name: 'Consultar precio' }));
    dialog = within(await screen.findByRole('dialog', { name: 'Consultar el precio de Team' }));
    await user.type(dialog.getByLabelText('Mensaje'), 'Somos cuatro');
    expect(hasUnsavedChanges()).toBe(true);
    await user.click(dialog.getByRole('button', { name: 'Cancelar' }));
    const ask = within(await screen.findByRole('alertdialog', { name: '¿Descartar los cambios?' }));
    await user.click(ask.getByRole('button', { name: 'Seguir editando' }));
    expect((screen.getByLabelText('Mensaje') as HTMLTextAreaElement).value).toBe('Somos cuatro');
    await user.click(screen.getByRole('button', { name: 'Cancelar' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Descartar cambios' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(hasUnsavedChanges()).toBe(false);
  });
});

describe('/plans: a first Checkout without billing data', () => {
  const CHECKOUT = `POST /workspaces/${WID}/billing/checkout`;
  const DETAILS = `PUT /workspaces/${WID}/billing/details`;
  const missing: [number, unknown] = [
    409,
    { code: 'billing_details_missing', message: 'Antes de contratar, completa los datos de facturación.' },
  ];
  const saved = {
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
  };

  it('asks for them in a dialog with Ajustes › Pagos’ form, saves them and goes on to the same Checkout', async () => {
    enter();
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const api = stubRoutes({
      [CHECKOUT]: (_body, n) =>
        n === 1 ? missing : [200, { url: 'https://checkout.stripe.test/c/pay/cs_test_2', sessionId: 'cs_test_2' }],
      [DETAILS]: [200, saved],
    });
    const { user } = open();
    await user.click(screen.getByRole('radio', { name: /Anual/ }));
    await user.click(contratar('advance'));
    const dialog = within(await screen.findByRole('dialog', { name: 'Datos de facturación' }, { timeout: 5000 }));
    expect(dialog.getByText(/a ese nombre y NIF irán las facturas de Diván/)).toBeTruthy();
    // Not a refusal: nothing on the card, which can be bought again.
    expect(card('advance').queryByRole('alert')).toBeNull();

    // The shared form checks with core's messages before anything is sent.
    await user.click(dialog.getByRole('button', { name: 'Guardar y continuar al pago' }));
    expect(await dialog.findByText('Escribe el NIF, NIE o CIF')).toBeTruthy();
    expect(dialog.getByText('El campo nombre o razón social es obligatorio')).toBeTruthy();
    expect(api.count(DETAILS)).toBe(0);

    await user.type(dialog.getByLabelText('Nombre o razón social'), 'Alba Ruiz Sanz');
    await user.type(dialog.getByLabelText('NIF, NIE o CIF'), '12345678z');
    await user.type(dialog.getByLabelText('Dirección'), 'Calle Mayor 1');
    await user.type(dialog.getByLabelText('Código postal'), '28001');
    await user.type(dialog.getByLabelText('Ciudad'), 'Madrid');
    await user.click(dialog.getByRole('button', { name: 'Guardar y continuar al pago' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.stripe.test/c/pay/cs_test_2'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.requests).toEqual([
      { route: CHECKOUT, body: { planId: 'advance', interval: 'year' } },
      { route: DETAILS, body: { ...saved.details } },
      { route: CHECKOUT, body: { planId: 'advance', interval: 'year' } },
    ]);
    expect(hasUnsavedChanges()).toBe(false);
  });

  it('closed without saving, goes nowhere: the plans are there to buy again', async () => {
    enter();
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const api = stubRoutes({ [CHECKOUT]: missing });
    const { user } = open();
    await user.click(contratar('basic'));
    const dialog = within(await screen.findByRole('dialog', { name: 'Datos de facturación' }, { timeout: 5000 }));
    await user.click(dialog.getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(assign).not.toHaveBeenCalled();
    expect(api.count(CHECKOUT)).toBe(1);
    expect(contratar('basic').disabled).toBe(false);
  });
});
