import { describe, expect, it } from 'vitest';
import * as core from '@divan/core';
import { BOOKING_MESSAGE_MAX, EMBED_CLOSE_MESSAGE, EMBED_RESIZE_MESSAGE } from './constants';

describe('the booking page constants', () => {
  it('equal the contract ones', () => {
    expect(EMBED_RESIZE_MESSAGE).toBe(core.EMBED_RESIZE_MESSAGE);
    expect(EMBED_CLOSE_MESSAGE).toBe(core.EMBED_CLOSE_MESSAGE);
    expect(BOOKING_MESSAGE_MAX).toBe(core.BOOKING_MESSAGE_MAX);
  });
});
