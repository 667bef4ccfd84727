import { describe, expect, it } from 'vitest';
import { divanTax, euVatIdCountry, NOT_SUBJECT_LEGEND, OUTSIDE_VAT_TERRITORY_LEGEND, REVERSE_CHARGE_LEGEND } from './divan-tax';

describe("the tax on Diván's own invoices", () => {
  it('charges 21 % IVA in Spain, to a business or a consumer, with or without a VAT id', () => {
    for (const c of [
      { country: 'ES', postalCode: '28014' },
      { country: 'es', postalCode: '08001', vatId: 'ESB12345678' },
      { country: 'ES' },
      { country: 'ES', postalCode: '07001' }, // Baleares: inside the IVA territory
    ])
      expect(divanTax(c)).toEqual({ case: 'spain', vatRate: 21, legend: null });
  });

  it('charges no IVA in the Canary Islands, Ceuta and Melilla, told by the postal code', () => {
    for (const postalCode of ['35001', '38 400', '51001', '52006'])
      expect(divanTax({ country: 'ES', postalCode })).toEqual({
        case: 'outside_vat_territory',
        vatRate: 0,
        legend: OUTSIDE_VAT_TERRITORY_LEGEND,
      });
    // Look-alikes outside: Madrid 28035, a code that only starts with 35 in a longer string.
    expect(divanTax({ country: 'ES', postalCode: '28035' }).case).toBe('spain');
    expect(divanTax({ country: 'ES', postalCode: '350012' }).case).toBe('spain');
  });

  it('reverse-charges an EU business whose VAT id is of its own country, Greece by EL', () => {
    expect(divanTax({ country: 'FR', vatId: 'FR 12 345678901' })).toEqual({
      case: 'reverse_charge',
      vatRate: 0,
      legend: REVERSE_CHARGE_LEGEND,
    });
    expect(divanTax({ country: 'PT', vatId: 'pt123456789' }).case).toBe('reverse_charge');
    expect(divanTax({ country: 'GR', vatId: 'EL123456789' }).case).toBe('reverse_charge');
  });

  it('charges Spain’s 21 % to an EU consumer: no VAT id, one of another country, or one of a bad shape', () => {
    for (const c of [
      { country: 'DE' },
      { country: 'DE', vatId: 'FR12345678901' },
      { country: 'IT', vatId: 'IT1' },
      { country: 'GR', vatId: 'GR123456789' },
    ])
      expect(divanTax(c)).toEqual({ case: 'eu_consumer', vatRate: 21, legend: null });
  });

  it('charges no IVA outside the EU', () => {
    for (const country of ['GB', 'CH', 'US', 'MX', 'AD'])
      expect(divanTax({ country, vatId: 'GB123456789' })).toEqual({ case: 'outside_eu', vatRate: 0, legend: NOT_SUBJECT_LEGEND });
  });

  it("reads a VAT id's country from its prefix", () => {
    expect(euVatIdCountry('DE123456789')).toBe('DE');
    expect(euVatIdCountry('el-123.456.789')).toBe('GR');
    expect(euVatIdCountry('GR123456789')).toBeNull();
    expect(euVatIdCountry('XX123456789')).toBeNull();
    expect(euVatIdCountry('DE')).toBeNull();
    expect(euVatIdCountry('DE1234567890123')).toBeNull();
  });
});
