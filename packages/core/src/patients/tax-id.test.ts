import { describe, expect, it } from 'vitest';
import { isCompanyTaxId, isValidSpanishTaxId, normalizeTaxId, taxIdKind } from './tax-id';

describe('normalizeTaxId', () => {
  it('removes spaces, dots and dashes and upper-cases', () => {
    expect(normalizeTaxId(' 12.345.678-z ')).toBe('12345678Z');
    expect(normalizeTaxId('x-1234567-l')).toBe('X1234567L');
    expect(normalizeTaxId('b 65.410.011')).toBe('B65410011');
    expect(normalizeTaxId('\t12345678\u00a0Z\n')).toBe('12345678Z');
  });
});

describe('DNI', () => {
  it.each(['12345678Z', '00000000T', '87654321X', '50000000R'])('%s is a valid DNI', (id) => {
    expect(taxIdKind(id)).toBe('dni');
    expect(isValidSpanishTaxId(id)).toBe(true);
    expect(isCompanyTaxId(id)).toBe(false);
  });

  it.each([
    ['12345678A', 'wrong letter'],
    ['12345678', 'no letter'],
    ['1234567Z', 'seven digits'],
    ['123456789Z', 'nine digits'],
    ['12345678Ñ', 'not a control letter'],
    ['Z12345678', 'letter first'],
  ])('%s is rejected (%s)', (id) => {
    expect(taxIdKind(id)).toBeNull();
    expect(isValidSpanishTaxId(id)).toBe(false);
  });

  it('reads a DNI written with spaces, dots, dashes or in lower case', () => {
    for (const id of ['12.345.678-Z', '12345678-z', ' 12 345 678 z ', '12.345.678z']) expect(taxIdKind(id), id).toBe('dni');
  });

  it('checks every control letter: only one letter fits each number', () => {
    const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    const valid = [...letters].filter((l) => taxIdKind(`12345678${l}`) === 'dni');
    expect(valid).toEqual(['Z']);
  });
});

describe('NIE', () => {
  it.each(['X1234567L', 'Y1234567X', 'Z1234567R'])('%s is a valid NIE (X → 0, Y → 1, Z → 2)', (id) => {
    expect(taxIdKind(id)).toBe('nie');
    expect(isValidSpanishTaxId(id)).toBe(true);
    expect(isCompanyTaxId(id)).toBe(false);
  });

  it.each([
    ['X1234567X', 'wrong letter'],
    ['Y1234567L', "X's letter under Y"],
    ['Z1234567X', "Y's letter under Z"],
    ['W1234567L', 'W is not a NIE letter (and not a valid CIF either)'],
    ['X123456L', 'six digits'],
    ['X12345678L', 'eight digits'],
  ])('%s is rejected (%s)', (id) => {
    expect(taxIdKind(id)).toBeNull();
  });

  it('reads a NIE written with separators or in lower case', () => {
    expect(taxIdKind('x1234567l')).toBe('nie');
    expect(taxIdKind('y-1234567.x')).toBe('nie');
    expect(taxIdKind('z 1234567 r')).toBe('nie');
  });
});

describe('CIF', () => {
  it.each([
    ['A28015865', 'Telefónica, S.A.'],
    ['A46103834', 'Mercadona, S.A.'],
    ['Q2826000H', 'Agencia Estatal de Administración Tributaria'],
    ['Q2818014I', 'Universidad Complutense de Madrid'],
    ['P2807900B', 'Ayuntamiento de Madrid'],
    ['P0801900B', 'Ajuntament de Barcelona'],
  ])('%s (%s) is a valid CIF', (id) => {
    expect(taxIdKind(id)).toBe('cif');
    expect(isCompanyTaxId(id)).toBe(true);
    expect(isValidSpanishTaxId(id)).toBe(true);
  });

  it.each([
    ['A', 'A58818501', 'A5881850A'],
    ['B', 'B65410011', 'B6541001A'],
    ['E', 'E12345674', 'E1234567D'],
    ['H', 'H12345674', 'H1234567D'],
  ])('%s requires a digit control: %s is valid, %s is not', (_entity, digit, letter) => {
    expect(taxIdKind(digit)).toBe('cif');
    expect(taxIdKind(letter)).toBeNull();
  });

  it.each([
    ['P', 'P2807900B', 'P28079002'],
    ['Q', 'Q2826000H', 'Q28260008'],
    ['R', 'R2800617I', 'R28006179'],
    ['S', 'S2800001F', 'S28000016'],
    ['N', 'N0032484H', 'N00324848'],
    ['W', 'W0072130H', 'W00721308'],
  ])('%s requires a letter control: %s is valid, %s is not', (_entity, letter, digit) => {
    expect(taxIdKind(letter)).toBe('cif');
    expect(taxIdKind(digit)).toBeNull();
  });

  it.each(['C', 'D', 'F', 'G', 'J', 'U', 'V'])('%s accepts either control (digit 4 or letter D for 1234567)', (entity) => {
    expect(taxIdKind(`${entity}12345674`)).toBe('cif');
    expect(taxIdKind(`${entity}1234567D`)).toBe('cif');
    expect(isCompanyTaxId(`${entity}1234567D`)).toBe(true);
  });

  it('maps a control of 0 to J and reads 10 − (sum mod 10) otherwise', () => {
    // 5000274: 1 + 0 + 0 + 0 + 4 + 7 + 8 = 20 → control 0 / J.
    expect(taxIdKind('R5000274J')).toBe('cif');
    expect(taxIdKind('G50002740')).toBe('cif');
    expect(taxIdKind('G5000274J')).toBe('cif');
    expect(taxIdKind('G5000274A')).toBeNull();
  });

  it.each([
    ['A28015866', 'wrong digit'],
    ['Q2826000A', 'wrong letter'],
    ['G2802964K', 'K is never a control'],
    ['I28015865', 'I is not an entity letter'],
    ['K2801586E', 'K is not handled as a CIF'],
    ['A2801586', 'seven characters after the entity letter'],
    ['A280158655', 'nine characters after the entity letter'],
  ])('%s is rejected (%s)', (id) => {
    expect(taxIdKind(id)).toBeNull();
    expect(isCompanyTaxId(id)).toBe(false);
  });

  it('reads a CIF written with separators or in lower case', () => {
    expect(taxIdKind('a-28.015.865')).toBe('cif');
    expect(taxIdKind(' q 2826000 h ')).toBe('cif');
    expect(isCompanyTaxId('b65.410.011')).toBe(true);
  });
});

describe('anything else', () => {
  it.each(['', '   ', '-', 'ES12345678Z', '12345678Z1', 'hola', '12345678 Z extra'])('%j is no tax id', (id) => {
    expect(taxIdKind(id)).toBeNull();
    expect(isValidSpanishTaxId(id)).toBe(false);
    expect(isCompanyTaxId(id)).toBe(false);
  });
});
