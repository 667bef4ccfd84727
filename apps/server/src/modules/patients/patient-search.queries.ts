import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import { queryPrepared } from '../../platform/db/sql-executor';
import type { PatientRow } from './patients.tables';

/** What a row of the list shows (patient-presenter.ts `summary`): 12 of the table's 40 columns. */
export type PatientSummaryRow = Pick<
  PatientRow,
  | 'id'
  | 'firstName'
  | 'lastName'
  | 'email'
  | 'phone'
  | 'billingTaxId'
  | 'treatmentStatus'
  | 'treatmentMotive'
  | 'treatmentSessionType'
  | 'assignedTherapistId'
  | 'treatmentStartDate'
  | 'createdAt'
>;
type Counts = { active: number; paused: number; inactive: number };
type Row = {
  n_active: number;
  n_paused: number;
  n_inactive: number;
  id: string | null;
  first_name: string;
  last_name: string | null;
  email: string | null;
  phone: string | null;
  billing_tax_id: string | null;
  treatment_status: PatientSummaryRow['treatmentStatus'];
  treatment_motive: string | null;
  treatment_session_type: string | null;
  assigned_therapist_id: string | null;
  treatment_start_date: string | null;
  created_at: string;
};

/** The list's sorts as columns of the matches (`m` below), each ending on the id so pages never overlap. */
const SORT_COLUMNS = {
  lastName: ['last_name', 'first_name'],
  firstName: ['first_name', 'last_name'],
  createdAt: ['created_at'],
  treatmentStartDate: ['treatment_start_date'],
} as const;

/**
 * A searched page and the counts per status in one statement, the matches found once.
 *
 * The search term's trigram index yields the matching rows (a bitmap scan); they are kept, narrow (id,
 * sort keys, status), in a materialised CTE, counted per status, sorted there for the page, and only the
 * page's rows are read whole, by primary key. Apart (the page by walking the name index and filtering,
 * the counts by the trigram index), the two statements read the matches twice and the page read every
 * row of the workspace before its first match: 3.1 ms of the database against 1.7 (decision 0025).
 * Without a search the name index gives the page directly: patients.repository.ts `list` keeps the two.
 *
 * `matches`: the list's conditions but the status; `status`: the tab shown, if any.
 */
export async function searchedPage(
  db: DbOrTx,
  o: {
    matches: SQL | undefined;
    status?: PatientSummaryRow['treatmentStatus'];
    sort: keyof typeof SORT_COLUMNS;
    dir: 'asc' | 'desc';
    limit: number;
    offset: number;
  },
): Promise<{ items: PatientSummaryRow[]; counts: Counts }> {
  const keys = [...SORT_COLUMNS[o.sort], 'id'].map((c) =>
    o.dir === 'desc' ? sql`${sql.identifier(c)} desc nulls last` : sql`${sql.identifier(c)} asc`,
  );
  const order = sql.join(keys, sql`, `);
  // Prepared (named) on PostgreSQL: parsed and planned once per connection and shape of the filters.
  const rows = await queryPrepared<Row>(
    db,
    sql`
    with m as materialized (
      select id, last_name, first_name, created_at, treatment_start_date, treatment_status
      from patients where ${o.matches ?? sql`true`}
    ),
    c as (
      select count(*) filter (where treatment_status = 'active')::int as n_active,
             count(*) filter (where treatment_status = 'paused')::int as n_paused,
             count(*) filter (where treatment_status = 'inactive')::int as n_inactive
      from m
    ),
    pg as (
      select id, row_number() over (order by ${order}) as rn from m
      ${o.status ? sql`where treatment_status = ${o.status}` : sql``}
      order by ${order} limit ${o.limit} offset ${o.offset}
    )
    select c.n_active, c.n_paused, c.n_inactive,
           p.id, p.first_name, p.last_name, p.email, p.phone, p.billing_tax_id, p.treatment_status, p.treatment_motive,
           p.treatment_session_type, p.assigned_therapist_id, p.treatment_start_date::text as treatment_start_date,
           to_char(p.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at
    from c left join (pg join patients p on p.id = pg.id) on true
    order by pg.rn`,
  );
  const first = rows[0];
  const counts = { active: first?.n_active ?? 0, paused: first?.n_paused ?? 0, inactive: first?.n_inactive ?? 0 };
  const items = rows
    .filter((r) => r.id !== null)
    .map((r) => ({
      id: r.id!,
      firstName: r.first_name,
      lastName: r.last_name,
      email: r.email,
      phone: r.phone,
      billingTaxId: r.billing_tax_id,
      treatmentStatus: r.treatment_status,
      treatmentMotive: r.treatment_motive,
      treatmentSessionType: r.treatment_session_type,
      assignedTherapistId: r.assigned_therapist_id,
      treatmentStartDate: r.treatment_start_date,
      createdAt: new Date(r.created_at),
    }));
  return { items, counts };
}
