import { describe, expect, it } from 'vitest';
import { PLAN_IDS, PLAN_PRICES } from '../workspaces/plans';
import { isSelfServePlan, unitPriceOf, yearlySavingOf } from './billing-plans';

describe("Diván's plan prices", () => {
  it('reads the price of one user per interval from the catalogue, Team on contact', () => {
    expect(unitPriceOf('advance', 'month')).toBe(PLAN_PRICES.advance!.monthly);
    expect(unitPriceOf('advance', 'year')).toBe(PLAN_PRICES.advance!.yearly);
    expect(unitPriceOf('team', 'year')).toBeNull();
  });

  it('says what a year saves against twelve months (two months of the plan)', () => {
    expect(yearlySavingOf('basic')).toBe(12 * 1900 - 19000);
    expect(yearlySavingOf('advance')).toBe(2 * 2900);
    expect(yearlySavingOf('team')).toBe(0);
  });

  it('sells Basic and Premium by Checkout, never Team', () => {
    expect(PLAN_IDS.filter(isSelfServePlan)).toEqual(['basic', 'advance']);
    expect(isSelfServePlan('gold')).toBe(false);
  });
});
