// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LearningAdminPurchase } from '@divan/core';
import { renderScreen } from '@/test/render';
import { enter, leave, stubRoutes, VID } from '../learning-test-kit';
import { PurchaseRefunds, refundTexts } from './purchase-refunds';

beforeEach(() => leave());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  leave();
});

const LIST = 'GET /learning/admin/purchases';
const PID = '7d1e2f3a-4b5c-4d6e-8f90-a1b2c3d4e5f6';
const REFUND = `POST /learning/admin/purchases/${PID}/refund`;
// A local time, so the row's «DD/MM/YYYY HH:mm» is the same in any time zone.
const AT = new Date(2026, 11, 7, 18, 5).toISOString();

const purchaseOf = (o: Partial<LearningAdminPurchase> = {}): LearningAdminPurchase => ({
  id: PID,
  videoId: VID,
  title: 'El apego en la consulta',
  baseCents: 2479,
  vatCents: 521,
  totalCents: 3000,
  purchasedAt: AT,
  refundedAt: null,
  invoiceNumber: 'D2026-0007',
  invoiceId: '0b9c8d7e-6f5a-4b3c-9d2e-1f0a9b8c7d6e',
  status: 'paid',
  buyer: { id: 'u-9', name: 'Olga Martín', email: 'olga@consulta.test' },
  paidOn: 'saved_card',
  ...o,
});

describe('the refunds screen', () => {
  it('lists each purchase with its date, buyer, video and amount; «Reembolsar» asks, then refunds with the token', async () => {
    enter();
    let refunded = false;
    const older = purchaseOf({
      id: 'f1e2d3c4-b5a6-4978-8a6b-5c4d3e2f1a0b',
      title: 'Duelo',
      status: 'refunded',
      refundedAt: AT,
      totalCents: 1210,
    });
    const api = stubRoutes({
      [LIST]: () => [200, { items: [purchaseOf(refunded ? { status: 'refunded', refundedAt: AT } : {}), older] }],
      [REFUND]: () => {
        refunded = true;
        return [200, purchaseOf({ refundedAt: AT })];
      },
    });
    const { user } = renderScreen(<PurchaseRefunds token="secreto" />);
    const list = await screen.findByRole('list', { name: 'Compras' });
    const [row, done] = within(list).getAllByRole('listitem');
    expect(within(row!).getByText('07/12/2026 18:05')).toBeTruthy();
    expect(within(row!).getByText('El apego en la consulta')).toBeTruthy();
    expect(within(row!).getByText(/Olga Martín/)).toBeTruthy();
    expect(within(row!).getByText('olga@consulta.test')).toBeTruthy();
    expect(row!.textContent).toContain('30,00\u00a0€');
    // A refunded purchase says so and offers nothing.
    expect(within(done!).getByText(refundTexts.refunded)).toBeTruthy();
    expect(within(done!).queryByRole('button', { name: /Reembolsar/ })).toBeNull();

    await user.click(within(row!).getByRole('button', { name: /Reembolsar/ }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('30,00\u00a0€');
    expect(api.count(REFUND)).toBe(0);
    await user.click(within(dialog).getByRole('button', { name: 'Reembolsar' }));
    await waitFor(() => expect(api.count(REFUND)).toBe(1));
    expect(api.of(REFUND)[0]!.headers['X-Upload-Token']).toBe('secreto');
    // The list is read again: the row now says «Reembolsada».
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Compras' })).getAllByText(refundTexts.refunded)).toHaveLength(2));
    expect(api.of(LIST).every((r) => r.headers['X-Upload-Token'] === 'secreto')).toBe(true);
  });

  it('searches by the buyer’s email, says when none matches, and shows a failed load with a retry', async () => {
    enter();
    const api = stubRoutes({
      [LIST]: (req, n) =>
        n === 1 ? [500, { code: 'internal', message: 'Error del servidor' }] : [200, { items: req.query.email ? [] : [purchaseOf()] }],
    });
    const { user } = renderScreen(<PurchaseRefunds token="secreto" />);
    await user.click(await screen.findByRole('button', { name: /Reintentar/ }));
    expect(await screen.findByRole('list', { name: 'Compras' })).toBeTruthy();
    expect(api.of(LIST)[1]!.query).toEqual({});

    await user.type(screen.getByRole('searchbox', { name: 'Correo del comprador' }), ' nadie@ ');
    await user.click(screen.getByRole('button', { name: /Buscar/ }));
    expect(await screen.findByText(refundTexts.noMatch)).toBeTruthy();
    expect(api.of(LIST).at(-1)!.query).toEqual({ email: 'nadie@' });
  });
});
