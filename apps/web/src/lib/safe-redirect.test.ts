import { describe, expect, it } from 'vitest';
import { safeRedirect } from './safe-redirect';

describe('safeRedirect', () => {
  it('keeps in-app paths with their query', () => {
    expect(safeRedirect('/settings/profile?tab=1')).toBe('/settings/profile?tab=1');
  });
  it('refuses other sites and protocol-relative urls', () => {
    expect(safeRedirect('https://evil.example')).toBe('/');
    expect(safeRedirect('//evil.example')).toBe('/');
    expect(safeRedirect('/\\evil.example')).toBe('/');
  });
  it('falls back when missing or pointing back at sign-in', () => {
    expect(safeRedirect(null)).toBe('/');
    expect(safeRedirect('/sign-in')).toBe('/');
  });
});
