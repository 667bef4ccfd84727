// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '@divan/core';
import { googleCalendarKeys } from '@/lib/google-calendar';
import { renderScreen, signIn, stubServer } from '@/test/render';
import { SessionRow } from './session-row';

const WID = '7d0c2b9e-6f0e-4a34-9d1c-2f3a4b5c6d7e';
const SID = '0b7c1f62-3a4d-4c5e-8f90-1a2b3c4d5e6f';
const MEET = 'https://meet.google.com/abc-defg-hij';

const session = (over: Partial<Session> = {}): Session => ({
  id: SID,
  patient: { id: '5a1e0c3d-2b4f-4e6a-9c8d-7f6e5d4c3b2a', name: 'Lucía Pérez' },
  therapist: { id: 'u-1', name: 'Marta Ruiz' },
  day: '2026-12-07',
  from: '10:00',
  to: '10:50',
  timeZone: 'Europe/Madrid',
  startsAt: '2026-12-07T09:00:00.000Z',
  endsAt: '2026-12-07T09:50:00.000Z',
  status: 'pending',
  cancellationReason: null,
  canceledAt: null,
  completedAt: null,
  price: 6000,
  fee: null,
  paymentsReceiver: 'workspace',
  paymentStatus: 'pending',
  paymentType: null,
  paidAt: null,
  modality: 'online',
  location: null,
  reminders: [],
  invoiced: false,
  chargeDate: null,
  videoConference: 'google_meet',
  series: null,
  createdAt: '2026-12-01T10:00:00.000Z',
  updatedAt: '2026-12-01T10:00:00.000Z',
  ...over,
});

function row(s: Session, link?: { synced: boolean; meetLink: string | null }) {
  signIn();
  return renderScreen(
    <ul>
      <SessionRow workspaceId={WID} session={s} show="patient" showTherapist={false} canWriteNotes />
    </ul>,
    { queries: link ? [[googleCalendarKeys.session(WID, s.id), link]] : [] },
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('SessionRow › Google Meet', () => {
  it('an online session with its Meet link offers «Unirse a Meet» in a new tab', () => {
    stubServer(200, { synced: true, meetLink: MEET });
    row(session(), { synced: true, meetLink: MEET });
    const a = screen.getByRole('link', { name: /Unirse a Meet/ });
    expect(a.getAttribute('href')).toBe(MEET);
    expect(a.getAttribute('target')).toBe('_blank');
    expect(a.getAttribute('rel')).toContain('noopener');
    // Not the product's own video call.
    expect(screen.queryByRole('link', { name: /Videollamada/ })).toBeNull();
  });

  it('reads the link from the session’s Google event', async () => {
    const server = stubServer(200, { synced: true, meetLink: MEET });
    row(session());
    expect((await screen.findByRole('link', { name: /Unirse a Meet/ })).getAttribute('href')).toBe(MEET);
    expect(String(server.mock.calls[0]![0])).toContain(`/workspaces/${WID}/google-calendar/sessions/${SID}`);
  });

  it('nothing while the event has no link yet, and nothing for a canceled session or the own video call', () => {
    const server = stubServer(200, { synced: false, meetLink: null });
    row(session(), { synced: false, meetLink: null });
    expect(screen.queryByRole('link', { name: /Unirse a Meet/ })).toBeNull();
    cleanup();
    row(session({ status: 'canceled', cancellationReason: 'therapist', canceledAt: '2026-12-02T10:00:00.000Z' }), {
      synced: true,
      meetLink: MEET,
    });
    expect(screen.queryByRole('link', { name: /Unirse a Meet/ })).toBeNull();
    cleanup();
    row(session({ videoConference: 'own' }));
    expect(screen.queryByRole('link', { name: /Unirse a Meet/ })).toBeNull();
    expect(screen.getByRole('link', { name: /Videollamada/ }).getAttribute('href')).toBe(`/meet/${SID}`);
    // The own video call asks Google nothing.
    expect(server).not.toHaveBeenCalled();
  });
});
