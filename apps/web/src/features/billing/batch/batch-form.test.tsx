// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderScreen, stubServer } from '@/test/render';
import { BatchForm } from './batch-form';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** `offset` days from today, as the screen takes a day: DD/MM/AAAA. */
const dmy = (offset: number) => {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  return `${String(d.getDate()).padStart(2, '0')}/${String(d.getMonth() + 1).padStart(2, '0')}/${d.getFullYear()}`;
};

describe('«Facturar en lote»: the period', () => {
  // Moved from e2e/tests/billing.test.ts: core's rule at the field, before asking the server for a preview.
  it('refuses an end before the start in Spanish and asks the server nothing', async () => {
    const server = stubServer();
    const { user } = renderScreen(<BatchForm wid="w-1" onStarted={() => undefined} />);
    const [from, to] = [screen.getByLabelText('Desde'), screen.getByLabelText('Hasta')];
    await user.clear(from);
    await user.type(from, dmy(-1));
    await user.clear(to);
    await user.type(to, dmy(-21));
    await user.click(screen.getByRole('button', { name: 'Ver qué se facturará' }));
    expect(await screen.findByText('La fecha de fin no puede ser anterior a la de inicio.')).toBeTruthy();
    expect(server).not.toHaveBeenCalled();
  });
});
