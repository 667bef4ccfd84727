import { describe, expect, it } from 'vitest';
import { issuerOf, showsIssuer } from './invoice-issuer';

const tere = { id: '00000000-0000-4000-8000-000000000001', name: 'Tere' };
const tomas = { id: '00000000-0000-4000-8000-000000000002', name: 'Tomás' };
const party = (fullName: string) => ({
  kind: 'therapist',
  fullName,
  taxId: '12345678Z',
  line1: null,
  line2: null,
  city: null,
  zipCode: null,
  country: null,
});
const hers = { sellerType: 'therapist' as const, seller: party('Teresa Terapeuta'), therapist: tere };
const clinics = { sellerType: 'workspace' as const, seller: party('Clínica Lotes SL'), therapist: tomas };

describe('the invoices list’s issuer', () => {
  it('two 2026-0001 of different issuers show the «Emisor» column, one issuer hides it', () => {
    expect(showsIssuer([hers, clinics])).toBe(true);
    expect(showsIssuer([hers, { ...hers, seller: null }])).toBe(false);
    expect(showsIssuer([])).toBe(false);
  });
  it('names the frozen seller, or a draft’s would-be issuer', () => {
    expect([issuerOf(hers), issuerOf(clinics)]).toEqual(['Teresa Terapeuta', 'Clínica Lotes SL']);
    expect(issuerOf({ ...clinics, seller: null })).toBe('El espacio');
    expect(issuerOf({ ...hers, seller: null })).toBe('Tere');
  });
});
