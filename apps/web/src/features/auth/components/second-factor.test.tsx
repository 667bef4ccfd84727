// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GuestApp } from '@/app/guest/guest-app';
import { renderScreen, signIn } from '@/test/render';
import { useAuthStore } from '@/stores/auth-store';
import { TotpEnrolDialog } from './totp-enrol-dialog';

type Answer = [status: number, body: unknown];

/** `fetch`, answering each `METHOD /path` (under /api/v1) with the next of its answers; the last one repeats. */
function stubRoutes(routes: Record<string, Answer[]>) {
  const requests: { route: string; body: unknown }[] = [];
  const seen = new Map<string, number>();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
      const route = `${init?.method ?? 'GET'} ${new URL(String(url), 'http://localhost').pathname.replace(/^\/api\/v1/, '')}`;
      requests.push({ route, body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined });
      const n = seen.get(route) ?? 0;
      seen.set(route, n + 1);
      const answers = routes[route];
      const [status, answer] = answers?.[Math.min(n, answers.length - 1)] ?? [
        404,
        { code: 'not_found', message: `Sin respuesta para ${route}` },
      ];
      return new Response(JSON.stringify(answer), { status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return requests;
}

const SF = '/realms/therapists/second-factor';
const CODES = Array.from({ length: 10 }, (_, i) => `abcd${i}-efgh${i}`);
const WRONG = { code: 'invalid_code', message: 'El código no es correcto.' };
const TOKENS = {
  userId: '7b0c2b9e-6f0e-4a34-9d1c-2f3a4b5c6d7e',
  accessToken: 'e30.e30.firma',
  refreshToken: 'r-1',
  profile: { id: '7b0c2b9e-6f0e-4a34-9d1c-2f3a4b5c6d7e', email: 'marta@consulta.example', firstName: 'Marta' },
};

beforeAll(() => import('@/features/auth/routes/sign-in'), 60_000);
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  useAuthStore.setState({ userId: null, accessToken: null, refreshToken: null, profile: null, loggedIn: false });
});

describe('setting up the authenticator app', () => {
  it('shows the QR and the manual key, refuses a wrong code in Spanish, then shows the ten recovery codes once', async () => {
    const requests = stubRoutes({
      [`POST ${SF}/totp`]: [[200, { secret: 'JBSWY3DPEHPK3PXPJBSW', uri: 'otpauth://totp/x', qrDataUrl: 'data:image/png;base64,AAAA' }]],
      [`POST ${SF}/totp/confirm`]: [
        [400, WRONG],
        [200, { recoveryCodes: CODES }],
      ],
    });
    signIn();
    const closed = vi.fn();
    const { user } = renderScreen(<TotpEnrolDialog open onOpenChange={closed} />);
    const dialog = await screen.findByRole('dialog', { name: 'Configurar app de autenticación' });
    expect(await within(dialog).findByRole('img', { name: 'Código QR para tu app de autenticación' })).toBeTruthy();
    expect(within(dialog).getByText('JBSW Y3DP EHPK 3PXP JBSW')).toBeTruthy();

    const input = within(dialog).getByRole('textbox', { name: 'Código de la app' });
    await user.type(input, '12345');
    await user.click(within(dialog).getByRole('button', { name: 'Activar' }));
    expect(within(dialog).getByText('El código tiene 6 dígitos')).toBeTruthy();
    expect(requests.filter((r) => r.route.endsWith('/confirm'))).toEqual([]);

    await user.type(input, '9');
    await user.click(within(dialog).getByRole('button', { name: 'Activar' }));
    expect(await within(dialog).findByText('El código no es correcto.')).toBeTruthy();

    await user.type(input, '654321');
    await user.click(within(dialog).getByRole('button', { name: 'Activar' }));
    const list = await within(dialog).findByRole('list', { name: 'Códigos de recuperación' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(CODES);
    expect(requests.filter((r) => r.route.endsWith('/confirm')).map((r) => r.body)).toEqual([{ code: '123459' }, { code: '654321' }]);
    await user.click(within(dialog).getByRole('button', { name: 'He guardado mis códigos' }));
    expect(closed).toHaveBeenCalledWith(false);
  });
});

describe('signing in with the authenticator app', () => {
  async function toSecondStep() {
    window.history.replaceState(null, '', '/sign-in');
    const requests = stubRoutes({
      'POST /realms/therapists/code': [[200, { challenge: 'c-1', expiresAt: '2026-12-07T10:10:00.000Z', method: 'totp' }]],
      [`POST ${SF}/login`]: [
        [400, WRONG],
        [200, TOKENS],
      ],
    });
    const view = renderScreen(<GuestApp leave={vi.fn()} />);
    await screen.findByRole('heading', { level: 1, name: 'Inicia sesión' }, { timeout: 10_000 });
    await view.user.type(screen.getByRole('textbox', { name: 'Email' }), 'marta@consulta.example');
    await view.user.type(screen.getByLabelText('Contraseña'), 'Divan-2026!');
    await view.user.click(screen.getByRole('button', { name: 'Continuar' }));
    await screen.findByRole('heading', { level: 1, name: 'Verificación en dos pasos' });
    return { ...view, requests };
  }

  it('asks for the app’s code instead of a mailed one; a wrong code is refused, the right one signs in', async () => {
    const { user, requests } = await toSecondStep();
    expect(screen.queryByText(/Hemos enviado un código/)).toBeNull();
    await user.type(screen.getByRole('textbox', { name: 'Código de la app' }), '111111');
    expect(await screen.findByText('El código no es correcto.')).toBeTruthy();
    expect(useAuthStore.getState().loggedIn).toBe(false);
    await user.type(screen.getByRole('textbox', { name: 'Código de la app' }), '222222');
    await waitFor(() => expect(useAuthStore.getState().loggedIn).toBe(true));
    expect(requests.filter((r) => r.route.endsWith('/second-factor/login')).map((r) => r.body)).toEqual([
      expect.objectContaining({ challenge: 'c-1', code: '111111' }),
      expect.objectContaining({ challenge: 'c-1', code: '222222' }),
    ]);
  });

  it('takes a recovery code instead', async () => {
    const { user, requests } = await toSecondStep();
    await user.click(screen.getByRole('button', { name: 'Usar un código de recuperación' }));
    await user.type(screen.getByRole('textbox', { name: 'Código de recuperación' }), 'abcde-12345');
    await user.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(await screen.findByText('El código no es correcto.')).toBeTruthy();
    expect(requests.at(-1)!.body).toEqual(expect.objectContaining({ challenge: 'c-1', recoveryCode: 'abcde-12345' }));
    expect(requests.at(-1)!.body).not.toHaveProperty('code');
  });
});
