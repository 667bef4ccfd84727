/** Plans of spec §1/§9 and the features each grants. Limits not given by the spec are ours, named here once. */
export const PLAN_IDS = ['basic', 'advance', 'team'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export type Features = {
  /** Active patients per therapist; null: unlimited. */
  activePatientLimit: number | null;
  sessionReminders: number;
  canEmbedPublicServices: boolean;
  canCreateInvoiceBatch: boolean;
  /** The four tabs of /analytics and their exports (spec §1: advanced statistics on Advance); Basic has the month summary. */
  advancedStatistics: boolean;
};

export const PLAN_FEATURES: Record<PlanId, Features> = {
  basic: {
    activePatientLimit: 30,
    sessionReminders: 1,
    canEmbedPublicServices: false,
    canCreateInvoiceBatch: false,
    advancedStatistics: false,
  },
  advance: {
    activePatientLimit: null,
    sessionReminders: 2,
    canEmbedPublicServices: true,
    canCreateInvoiceBatch: true,
    advancedStatistics: true,
  },
  team: {
    activePatientLimit: null,
    sessionReminders: 2,
    canEmbedPublicServices: true,
    canCreateInvoiceBatch: true,
    advancedStatistics: true,
  },
};

export const PLAN_LABELS: Record<PlanId, string> = { basic: 'Basic', advance: 'Premium', team: 'Team' };

/**
 * Prices in cents per active user, VAT not included (spec §1: monthly or yearly, plus VAT, based on
 * active users). The yearly price is ten monthly ones. Team is priced on contact (null).
 */
export type PlanPrice = { monthly: number; yearly: number };
export const PLAN_PRICES: Record<PlanId, PlanPrice | null> = {
  basic: { monthly: 1900, yearly: 19000 },
  advance: { monthly: 2900, yearly: 29000 },
  team: null,
};

/** What only Team adds (spec §1): payment and commission settings, access control, a shared workspace. */
export const TEAM_EXTRAS = ['Espacio compartido con tu equipo', 'Roles y permisos por persona', 'Comisión y cobro por terapeuta'] as const;

/** Without a plan (trial ended, never subscribed): Basic's features, and the app prompts to upgrade. */
export const NO_PLAN_FEATURES = PLAN_FEATURES.basic;
export const FREE_TRIAL_DAYS = 14;
/** During the free trial a workspace has Advance features and up to this many seats. */
export const TRIAL_FEATURES = PLAN_FEATURES.advance;
export const TRIAL_SEATS = 5;
export const MAX_OWNED_WORKSPACES = 5;
export const MAX_ROLES_PER_WORKSPACE = 20;
export const SEATS_WITHOUT_PLAN = 1;

export type PlanState = {
  id: PlanId | null;
  periodEnd: string | null;
  renovationEnabled: boolean;
  freeTrialEnd: string | null;
  seats: number;
  promptUpgrade: boolean;
};

export type TrialStatus = { kind: 'none' } | { kind: 'days_left'; days: number } | { kind: 'last_day' } | { kind: 'ended' };

/** The free trial as the shell shows it (spec §1: days left, last day, ended). */
export function trialStatus(plan: Pick<PlanState, 'id' | 'freeTrialEnd'>, now = new Date()): TrialStatus {
  if (plan.id || !plan.freeTrialEnd) return { kind: 'none' };
  const ms = Date.parse(plan.freeTrialEnd) - now.getTime();
  if (ms <= 0) return { kind: 'ended' };
  const days = Math.ceil(ms / 86_400_000);
  return days <= 1 ? { kind: 'last_day' } : { kind: 'days_left', days };
}

/** The features in force: the plan's, the trial's while it runs, else Basic's. */
export function featuresOf(plan: Pick<PlanState, 'id' | 'freeTrialEnd'>, now = new Date()): Features {
  if (plan.id) return PLAN_FEATURES[plan.id];
  return trialStatus(plan, now).kind === 'ended' || !plan.freeTrialEnd ? NO_PLAN_FEATURES : TRIAL_FEATURES;
}

export function maxSeatsOf(plan: Pick<PlanState, 'id' | 'freeTrialEnd' | 'seats'>, now = new Date()): number {
  if (plan.id) return plan.seats;
  return trialStatus(plan, now).kind === 'ended' || !plan.freeTrialEnd ? SEATS_WITHOUT_PLAN : TRIAL_SEATS;
}
