// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineAbility } from '@divan/core';
import { placeholderWorkspace } from '@/stores/workspaces-store';
import { renderScreen, stubServer } from '@/test/render';
import { patientKeys } from '../api/keys';
import { WorkspaceScopeProvider } from '../api/workspace';
import { CreatePatientDialog } from './create-patient-dialog';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const workspace = { ...placeholderWorkspace, id: 'w-1', name: 'Consulta Marta', me: { memberId: 'm-1', isAdmin: true, permissions: [] } };
const scope = { workspace, ability: defineAbility({ userId: 'u-1', isAdmin: true, permissions: [] }), userId: 'u-1' };

function openDialog() {
  return renderScreen(
    <WorkspaceScopeProvider value={scope}>
      <CreatePatientDialog open onOpenChange={() => undefined} />
    </WorkspaceScopeProvider>,
    { queries: [[patientKeys.members(workspace.id), []]] },
  );
}

describe('«Nuevo paciente»', () => {
  // Moved from e2e/tests/patients.test.ts: the form's own rules, in Spanish, before anything is sent.
  it('explains every mistake in Spanish and sends nothing', async () => {
    const server = stubServer();
    const { user } = openDialog();
    const dialog = within(await screen.findByRole('dialog', { name: 'Nuevo paciente' }));
    await user.type(dialog.getByLabelText('Email'), 'lucia.romero@correo');
    await user.type(dialog.getByLabelText('DNI/NIE'), '12345678A');
    await user.type(dialog.getByLabelText('Precio por sesión (€)'), 'sesenta');
    await user.click(dialog.getByRole('button', { name: 'Crear paciente' }));
    expect(await dialog.findByText('El campo nombre es obligatorio')).toBeTruthy();
    for (const message of ['Email inválido', 'DNI/NIE inválido', 'Precio inválido']) expect(dialog.getByText(message)).toBeTruthy();
    expect(server.mock.calls.filter(([, init]) => init?.method === 'POST')).toEqual([]);
  });
});
