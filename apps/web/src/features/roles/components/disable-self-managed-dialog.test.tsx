// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { placeholderWorkspace } from '@/stores/workspaces-store';
import { renderScreen, signIn, stubServer } from '@/test/render';
import { DisableSelfManagedDialog } from './disable-self-managed-dialog';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('«¿Desactivar la gestión propia de roles?»', () => {
  it('keeps «Desactivar para siempre» disabled until DESACTIVAR is typed, then sends the word', async () => {
    signIn();
    const server = stubServer(200, { ...placeholderWorkspace, id: 'w-1', rolesManager: 'system' });
    const { user } = renderScreen(<DisableSelfManagedDialog workspaceId="w-1" open onOpenChange={() => undefined} />);
    const dialog = within(await screen.findByRole('alertdialog'));
    const confirm = dialog.getByRole('button', { name: 'Desactivar para siempre' }) as HTMLButtonElement;
    const word = dialog.getByLabelText('Escribe DESACTIVAR para confirmar');
    expect(confirm.disabled).toBe(true);
    await user.type(word, 'DESACTIVA');
    expect(confirm.disabled).toBe(true);
    await user.type(word, 'R');
    expect(confirm.disabled).toBe(false);
    await user.click(confirm);
    await waitFor(() => expect(server).toHaveBeenCalledTimes(1));
    const [url, init] = server.mock.calls[0]!;
    expect([String(url), init?.method, init?.body]).toEqual([
      '/api/v1/workspaces/w-1/roles-manager/disable',
      'POST',
      '{"confirmation":"DESACTIVAR"}',
    ]);
  });
});
