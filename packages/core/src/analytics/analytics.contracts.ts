/**
 * The statistics' API (issue 28, spec §1/§2): four tabs of /analytics, the dashboard's figures, and the
 * rows behind every card. Amounts are integer cents; a card a member may not read (a permission, or a
 * clinical field for Recepción) is null, never a zero that would lie.
 */
import { z } from 'zod';
import { dayField } from '../fields';
import { workspaceIdParams } from '../workspaces/workspace.contracts';
import { periodProblem } from './periods';
import { AGEING_BUCKETS, AGE_BANDS } from './metrics';

export const ANALYTICS_TABS = ['patients', 'treatments', 'sessions', 'billing'] as const;
export type AnalyticsTab = (typeof ANALYTICS_TABS)[number];
export const ANALYTICS_TAB_LABELS: Record<AnalyticsTab, string> = {
  patients: 'Pacientes',
  treatments: 'Tratamientos',
  sessions: 'Sesiones',
  billing: 'Facturación',
};

/** A period of days in the workspace's zone and, optionally, one therapist (absent: all the caller reads). */
const periodFields = z.object({
  from: dayField('inicio del periodo'),
  to: dayField('fin del periodo'),
  therapistId: z.uuid({ error: 'Terapeuta inválido' }).optional(),
});
const checkPeriod = (q: { from: string; to: string }, ctx: z.RefinementCtx) => {
  const problem = periodProblem(q);
  if (problem) ctx.addIssue({ code: 'custom', path: ['to'], message: problem });
};

export const analyticsQuery = periodFields.superRefine(checkPeriod);
export type AnalyticsQuery = z.output<typeof analyticsQuery>;

export const analyticsTabParams = workspaceIdParams.extend({
  tab: z.enum(ANALYTICS_TABS, { error: 'Pestaña de estadísticas desconocida' }),
});

export const analyticsExportQuery = periodFields
  .extend({ format: z.enum(['xlsx', 'csv'], { error: 'Formato no válido (xlsx o csv).' }).default('xlsx') })
  .superRefine(checkPeriod);

const period = z.object({ from: z.string(), to: z.string() });
const counted = z.object({ key: z.string(), count: z.number().int() });
const perTherapist = z.object({ therapistId: z.uuid(), name: z.string() });

// --- Sesiones ------------------------------------------------------------------------------------

export const sessionTotals = z.object({
  /** Every session of the period, whatever its state. */
  scheduled: z.number().int(),
  pending: z.number().int(),
  completed: z.number().int(),
  canceled: z.number().int(),
  /** Canceled, by reason: patient, therapist, late (late cancellation), no_show, and none given. */
  canceledByReason: z.object({
    patient: z.number().int(),
    therapist: z.number().int(),
    late: z.number().int(),
    no_show: z.number().int(),
    none: z.number().int(),
  }),
  online: z.number().int(),
  presential: z.number().int(),
  /** Minutes of the sessions not canceled. */
  bookedMinutes: z.number().int(),
});
export type SessionTotals = z.infer<typeof sessionTotals>;

export const sessionsStats = z.object({
  period,
  previousPeriod: period,
  totals: sessionTotals,
  previous: sessionTotals,
  /** Sessions not canceled by local weekday (1 = Monday) and hour of their start. */
  heatmap: z.array(z.object({ weekday: z.number().int(), hour: z.number().int(), count: z.number().int() })),
  byDay: z.array(z.object({ day: z.string(), completed: z.number().int(), pending: z.number().int(), canceled: z.number().int() })),
  byTherapist: z.array(
    perTherapist.extend({
      scheduled: z.number().int(),
      completed: z.number().int(),
      canceled: z.number().int(),
      noShows: z.number().int(),
      bookedMinutes: z.number().int(),
      /** Minutes the therapist's booking services offer in the period; null when they publish none. */
      offeredMinutes: z.number().int().nullable(),
    }),
  ),
  /** booked ÷ offered minutes, of the therapists who offer any; null when none does. */
  utilisation: z.object({ bookedMinutes: z.number().int(), offeredMinutes: z.number().int() }).nullable(),
});
export type SessionsStats = z.infer<typeof sessionsStats>;

// --- Facturación ---------------------------------------------------------------------------------

export const billingTotals = z.object({
  /** Invoices issued in the period (rectifying ones with their sign; voided ones not): their totals. */
  issuedCents: z.number().int(),
  issuedCount: z.number().int(),
  /** Invoices paid in the period (by the day of payment). */
  collectedCents: z.number().int(),
  collectedCount: z.number().int(),
  /** Completed sessions of the period not yet invoiced: money left on the table. */
  uninvoicedCents: z.number().int(),
  uninvoicedCount: z.number().int(),
});
export type BillingTotals = z.infer<typeof billingTotals>;

export const billingStats = z.object({
  period,
  previousPeriod: period,
  totals: billingTotals,
  previous: billingTotals,
  /** What is owed today (issued, not paid, not voided), whatever the period, by days since issue. */
  outstanding: z.object({
    cents: z.number().int(),
    count: z.number().int(),
    ageing: z.array(z.object({ bucket: z.enum(AGEING_BUCKETS), cents: z.number().int(), count: z.number().int() })),
  }),
  byMonth: z.array(z.object({ month: z.string(), issuedCents: z.number().int(), collectedCents: z.number().int() })),
  byPaymentType: z.array(z.object({ key: z.string(), cents: z.number().int(), count: z.number().int() })),
  byTherapist: z.array(
    perTherapist.extend({
      issuedCents: z.number().int(),
      collectedCents: z.number().int(),
      completedSessions: z.number().int(),
      /** Their share of the period's completed sessions that carry a commission, and the workspace's. */
      feeCents: z.number().int(),
      commissionCents: z.number().int(),
    }),
  ),
  /** This month only: collected so far + prices of the sessions still to come; null for other periods. */
  projection: z.object({ collectedCents: z.number().int(), upcomingCents: z.number().int(), upcomingCount: z.number().int() }).nullable(),
});
export type BillingStats = z.infer<typeof billingStats>;

// --- Pacientes -----------------------------------------------------------------------------------

export const patientTotals = z.object({
  /** Added to Diván in the period. */
  added: z.number().int(),
  /** Treatments ended in the period; null when the member reads no treatment data. */
  discharged: z.number().int().nullable(),
  /** Patients with a session (not canceled) in the period: the caseload the breakdowns describe. */
  seen: z.number().int(),
});
export type PatientTotals = z.infer<typeof patientTotals>;

export const patientsStats = z.object({
  period,
  previousPeriod: period,
  totals: patientTotals,
  previous: patientTotals,
  /** Treatment status today; null when the member reads no treatment data (Recepción). */
  statusNow: z.object({ active: z.number().int(), paused: z.number().int(), inactive: z.number().int() }).nullable(),
  dischargedByReason: z.array(counted).nullable(),
  /** Of the patients seen in the period. Clinical ones (motive, session type, referral) null for Recepción. */
  byMotive: z.array(counted).nullable(),
  byReferralSource: z.array(counted).nullable(),
  bySessionType: z.array(counted).nullable(),
  byAgeBand: z.array(z.object({ key: z.enum(AGE_BANDS), count: z.number().int() })),
  byGender: z.array(counted),
});
export type PatientsStats = z.infer<typeof patientsStats>;

// --- Tratamientos --------------------------------------------------------------------------------

export const treatmentTotals = z.object({
  /** Treatments ended in the period (end date in it). */
  ended: z.number().int(),
  abandoned: z.number().int(),
  /** Abandoned with EARLY_DROPOUT_MAX_SESSIONS completed sessions or fewer. */
  earlyDropouts: z.number().int(),
  medianDays: z.number().nullable(),
  medianSessions: z.number().nullable(),
  /** Completed sessions of the period, and how many of them were followed by another booked session. */
  completedSessions: z.number().int(),
  rebooked: z.number().int(),
});
export type TreatmentTotals = z.infer<typeof treatmentTotals>;

export const treatmentsStats = z.object({
  period,
  previousPeriod: period,
  totals: treatmentTotals,
  previous: treatmentTotals,
  byMotive: z.array(z.object({ key: z.string(), ended: z.number().int(), abandoned: z.number().int() })),
});
export type TreatmentsStats = z.infer<typeof treatmentsStats>;

export const analyticsResponse = z.discriminatedUnion('tab', [
  z.object({ tab: z.literal('sessions'), stats: sessionsStats }),
  z.object({ tab: z.literal('billing'), stats: billingStats }),
  z.object({ tab: z.literal('patients'), stats: patientsStats }),
  z.object({ tab: z.literal('treatments'), stats: treatmentsStats }),
]);
export type AnalyticsResponse = z.infer<typeof analyticsResponse>;

// --- The rows behind a card ----------------------------------------------------------------------

/** Every card names what it counts; its rows sum to it. */
export const ANALYTICS_CARDS = {
  sessions: ['scheduled', 'completed', 'pending', 'canceled', 'no_show', 'online', 'presential'],
  billing: ['issued', 'collected', 'outstanding', 'uninvoiced'],
  patients: ['added', 'discharged', 'seen'],
  treatments: ['ended', 'abandoned', 'early_dropouts'],
} as const satisfies Record<AnalyticsTab, readonly string[]>;
export type AnalyticsCard = (typeof ANALYTICS_CARDS)[AnalyticsTab][number];
const ALL_CARDS = [...new Set(Object.values(ANALYTICS_CARDS).flat())] as [AnalyticsCard, ...AnalyticsCard[]];

export const ANALYTICS_ROWS_MAX = 1_000;

export const analyticsRowsQuery = periodFields
  .extend({ card: z.enum(ALL_CARDS, { error: 'Tarjeta desconocida' }) })
  .superRefine(checkPeriod);

const sessionRow = z.object({
  kind: z.literal('session'),
  id: z.uuid(),
  startsAt: z.string(),
  patient: z.object({ id: z.uuid(), name: z.string() }),
  therapistName: z.string(),
  status: z.string(),
  cancellationReason: z.string().nullable(),
  modality: z.string(),
  minutes: z.number().int(),
  priceCents: z.number().int(),
});
const invoiceRow = z.object({
  kind: z.literal('invoice'),
  id: z.uuid(),
  number: z.string().nullable(),
  issueDate: z.string().nullable(),
  paidAt: z.string().nullable(),
  buyerName: z.string(),
  totalCents: z.number().int(),
  paymentStatus: z.string(),
});
const patientRow = z.object({
  kind: z.literal('patient'),
  id: z.uuid(),
  name: z.string(),
  day: z.string().nullable(),
  detail: z.string().nullable(),
});
export const analyticsRow = z.discriminatedUnion('kind', [sessionRow, invoiceRow, patientRow]);
export type AnalyticsRow = z.infer<typeof analyticsRow>;

export const analyticsRowsResponse = z.object({
  items: z.array(analyticsRow),
  /** How many rows the card counts; items stop at ANALYTICS_ROWS_MAX. */
  total: z.number().int(),
  /** The rows' amounts added up (cents), when the card is an amount. */
  sumCents: z.number().int().nullable(),
});
export type AnalyticsRowsResponse = z.infer<typeof analyticsRowsResponse>;

// --- The dashboard -------------------------------------------------------------------------------

export const dashboardStats = z.object({
  today: z.string(),
  month: period,
  /** Null when the member reads no invoices. */
  revenue: z
    .object({
      /** Issued this month, and in the same days of last month. */
      monthIssuedCents: z.number().int(),
      previousMonthIssuedCents: z.number().int(),
      monthCollectedCents: z.number().int(),
      /** The last 30 days, issued per day, oldest first. */
      last30Days: z.array(z.object({ day: z.string(), cents: z.number().int() })),
      dueCents: z.number().int(),
      dueCount: z.number().int(),
    })
    .nullable(),
  /** This month's sessions; null when the member reads no sessions. */
  sessions: z.object({ completed: z.number().int(), pending: z.number().int(), canceled: z.number().int() }).nullable(),
  /** Whether the plan includes the advanced statistics (the four tabs). */
  advanced: z.boolean(),
  /** The scopes the member may pick on /analytics: the whole workspace (or only their own), and whose figures. */
  scope: z.object({ workspace: z.boolean(), therapists: z.array(perTherapist) }),
});
export type DashboardStats = z.infer<typeof dashboardStats>;
