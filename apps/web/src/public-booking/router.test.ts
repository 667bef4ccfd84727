import { describe, expect, it } from 'vitest';
import { hrefOf, parseRoute } from './router';

const WS = '0f8fad5b-d9cb-469f-a165-70867728950e';
const TH = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const SV = '9b2d1f3e-1c1a-4d7e-8a55-2b8f0c6e4d21';

describe('parseRoute', () => {
  it('reads the three booking pages and the manage link', () => {
    expect(parseRoute(`/v1/reservations/${WS}`)).toEqual({ name: 'workspace', workspaceId: WS });
    expect(parseRoute(`/v1/reservations/${WS}/`)).toEqual({ name: 'workspace', workspaceId: WS });
    expect(parseRoute(`/v1/reservations/${WS}/${TH}`)).toEqual({ name: 'therapist', workspaceId: WS, therapistId: TH });
    expect(parseRoute(`/v1/reservations/${WS}/${TH}/${SV}`)).toEqual({ name: 'service', workspaceId: WS, therapistId: TH, serviceId: SV });
    expect(parseRoute('/v1/reservations/manage/abcDEF_123-xyz')).toEqual({ name: 'manage', token: 'abcDEF_123-xyz' });
  });

  it('answers not-found for anything else', () => {
    expect(parseRoute('/v1/reservations')).toEqual({ name: 'not-found' });
    expect(parseRoute('/v1/reservations/')).toEqual({ name: 'not-found' });
    expect(parseRoute('/booking.html')).toEqual({ name: 'not-found' });
    expect(parseRoute(`/v1/reservations/${WS}/${TH}/${SV}/more`)).toEqual({ name: 'not-found' });
    expect(parseRoute('/v1/reservations/manage')).toEqual({ name: 'not-found' });
  });

  it('writes the pages back', () => {
    expect(hrefOf(WS, TH)).toBe(`/v1/reservations/${WS}/${TH}`);
    expect(parseRoute(hrefOf(WS, TH, SV))).toMatchObject({ name: 'service', serviceId: SV });
  });
});
