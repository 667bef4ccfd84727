// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderScreen, signIn, stubServer } from '@/test/render';
import { taskKeys } from '../api/tasks-api';
import { TasksCard } from './tasks-card';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const wid = 'w-1';

describe('TasksCard', () => {
  it('says there is nothing pending when the list is empty', async () => {
    renderScreen(<TasksCard workspaceId={wid} />, { queries: [[taskKeys.list(wid), []]] });
    expect(await screen.findByText('No tienes tareas pendientes.')).toBeTruthy();
  });

  it('refuses a day that is not in the calendar in Spanish, before any request, and keeps what was typed', async () => {
    const server = stubServer();
    const { user } = renderScreen(<TasksCard workspaceId={wid} />, { queries: [[taskKeys.list(wid), []]] });
    const title = screen.getByRole('textbox', { name: 'Nueva tarea' });
    const due = screen.getByRole('textbox', { name: /Fecha límite de la nueva tarea/ });
    await user.type(title, 'Cita imposible');
    await user.type(due, '30/02/2026');
    await user.type(title, '{Enter}');
    expect((await screen.findByRole('alert')).textContent).toBe('Fecha inválida');
    expect(due.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(due);
    expect((title as HTMLInputElement).value).toBe('Cita imposible');
    expect(server).not.toHaveBeenCalled();
  });

  it('shows the server’s Spanish message and «Reintentar» when the list cannot load', async () => {
    signIn();
    const server = stubServer(500, { code: 'internal_error', message: 'Error interno del servidor' });
    const { user } = renderScreen(<TasksCard workspaceId={wid} />);
    expect((await screen.findByText(/No se pudieron cargar las tareas\./)).textContent).toContain('Error interno del servidor');
    await user.click(screen.getByRole('button', { name: 'Reintentar' }));
    await waitFor(() => expect(server).toHaveBeenCalledTimes(2));
    expect(String(server.mock.calls[0]![0])).toBe(`/api/v1/workspaces/${wid}/tasks`);
  });
});
