import { describe, expect, it } from 'vitest';
import { isStrongPassword } from './password-rule';
import { isOutdatedClient } from '../version';

describe('password rule (spec §5)', () => {
  it('needs 8 characters and two classes of four', () => {
    expect(isStrongPassword('abcdefgh')).toBe(false);
    expect(isStrongPassword('abcdefg1')).toBe(true);
    expect(isStrongPassword('ABCDEFG!')).toBe(true);
    expect(isStrongPassword('Ab1')).toBe(false);
    expect(isStrongPassword('ñandúñandú')).toBe(false);
    expect(isStrongPassword('Ñandúñandú')).toBe(true);
  });
});

describe('client version', () => {
  it('refuses versions older than the minimum, and garbage', () => {
    expect(isOutdatedClient(undefined)).toBe(false);
    expect(isOutdatedClient('1.0.0')).toBe(false);
    expect(isOutdatedClient('1.2')).toBe(false);
    expect(isOutdatedClient('0.9.9')).toBe(true);
    expect(isOutdatedClient('latest')).toBe(true);
  });
});
