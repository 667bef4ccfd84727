// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderScreen } from '@/test/render';
import { supportQueryKey } from '../api/help-api';
import { HelpSettingsRoute } from './help-settings';

afterEach(cleanup);

describe('HelpSettingsRoute', () => {
  it('links the operator’s address with mailto:', async () => {
    renderScreen(<HelpSettingsRoute />, { queries: [[supportQueryKey, { email: 'soporte@consulta.example' }]] });
    const link = await screen.findByRole('link', { name: 'soporte@consulta.example' });
    expect(link.getAttribute('href')).toBe('mailto:soporte@consulta.example');
    expect(screen.getByRole('textbox', { name: 'Tu comentario' })).toBeTruthy();
  });

  it('says so when the installation has no contact address, and still offers the form', async () => {
    renderScreen(<HelpSettingsRoute />, { queries: [[supportQueryKey, { email: null }]] });
    expect(await screen.findByText(/no tiene una dirección de contacto configurada/)).toBeTruthy();
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.getByRole('button', { name: 'Enviar' })).toBeTruthy();
  });
});
