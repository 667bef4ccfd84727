import { describe, expect, it } from 'vitest';
import { patientListResponse, patientResponse } from '@divan/core';
import { z } from 'zod';
import { compiledSerializer } from './compiled-serializer';

const row = (over: Record<string, unknown> = {}) => ({
  id: '0b6f5b2e-6d1a-4f4e-9b1e-2f0c7a1d9e11',
  firstName: 'Ana',
  lastName: 'García «Peña» \u2028 \\ "x"',
  email: null,
  phone: '+34 612 345 678',
  taxId: '12345678Z',
  status: 'paused',
  motive: null,
  sessionType: 'individual',
  assignedTherapist: { id: '5f0c7a1d-9e11-4f4e-9b1e-0b6f5b2e6d1a', name: 'Luis Pérez', secret: 'no' },
  treatmentStartDate: '2026-01-02',
  createdAt: '2026-01-01T10:00:00.000Z',
  ...over,
});

describe('a response contract compiled to a serialiser', () => {
  const serialize = compiledSerializer(patientListResponse);
  const asZod = (v: unknown) => JSON.parse(JSON.stringify(patientListResponse.parse(v))) as unknown;

  it('writes what Zod would: the contract’s fields only, nulls kept, absent optionals left out, text escaped', () => {
    const { taxId: _t, status: _s, motive: _m, sessionType: _st, treatmentStartDate: _d, ...reception } = row();
    const value = {
      items: [row(), row({ assignedTherapist: null, lastName: null, internal: 'dropped' }), reception],
      total: 3,
      page: 1,
      pageSize: 50,
      counts: { active: 0, paused: 2, inactive: 1 },
      cacheKey: 'dropped',
    };
    const out = serialize(value as never);
    expect(JSON.parse(out)).toEqual(asZod(value));
    expect(out).not.toContain('dropped');
    expect(out).not.toContain('secret');
    // Without the counts (a member who may not read every status).
    const { counts: _c, ...noCounts } = value;
    expect(JSON.parse(serialize(noCounts as never))).toEqual(asZod(noCounts));
    expect(JSON.parse(serialize(noCounts as never))).not.toHaveProperty('counts');
  });

  it('refuses a value that lacks a required field, as the contract does', () => {
    const { createdAt: _c, ...noDate } = row();
    expect(() => serialize({ items: [noDate], total: 1, page: 1, pageSize: 50 } as never)).toThrow(/createdAt/);
    expect(() => patientListResponse.parse({ items: [noDate], total: 1, page: 1, pageSize: 50 })).toThrow();
  });

  it('compiles the nested contract of a whole patient file the same way', () => {
    const serializeFile = compiledSerializer(patientResponse);
    const file = {
      ...row(),
      birthdate: null,
      gender: 'female',
      billingInfo: { fullName: null, taxId: 'X', line1: null, line2: null, city: 'Madrid', zipCode: '28001', country: 'ES' },
      counts: { historyEntries: 3 },
      lastActivityAt: '2026-01-03T00:00:00.000Z',
      blockedAt: null,
    };
    expect(JSON.parse(serializeFile(file as never))).toEqual(JSON.parse(JSON.stringify(patientResponse.parse(file))));
  });

  it('fails at start-up for a contract JSON Schema cannot express', () => {
    expect(() => compiledSerializer(z.object({ at: z.date() }))).toThrow();
  });
});
