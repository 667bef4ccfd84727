import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EMAIL_PATTERN, isEmailAddress } from './email';

describe('the e-mail rule', () => {
  it("is Zod's own e-mail pattern, so a form and its contract agree", () => {
    expect(EMAIL_PATTERN.source).toBe(z.regexes.email.source);
    expect(EMAIL_PATTERN.flags).toBe(z.regexes.email.flags);
  });

  it('takes an address and refuses what is none', () => {
    for (const ok of ['lucia@example.com', 'ana.maria+citas@consulta.es', "o'connor@mail.co.uk"]) expect(isEmailAddress(ok)).toBe(true);
    for (const bad of [
      'lucia@',
      '@example.com',
      'lucia@example',
      'lu..cia@example.com',
      '.lucia@example.com',
      'lucia @example.com',
      'josé@example.com',
    ])
      expect(isEmailAddress(bad), bad).toBe(false);
  });

  it('answers as z.email() does', () => {
    for (const v of ['lucia@example.com', 'a@b.c', 'a@b.co', 'a.@b.co', 'x@-b.co', 'x_y@b-c.co', 'ñ@b.co'])
      expect(isEmailAddress(v), v).toBe(z.email().safeParse(v).success);
  });
});
