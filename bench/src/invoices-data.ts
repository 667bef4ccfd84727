// The invoicing scenario of issue 11: one therapist on the Advance plan who invoices as themself (valid
// NIF, one series, one VERI*FACTU chain), 1,000 patients with billing data, tens of thousands of drafts
// ready to issue, and a month of completed, not-yet-invoiced sessions for the batch. The therapist's
// billing data and one draft go through the API; the rest is written with SQL in the shape the server
// writes (the drafts are copies of the API's draft, with each patient as the buyer as `buyerOf` builds
// it), then checked after the runs: numbers without gap or duplicate, the chain unbroken.
import pg from 'pg';
import { DEFAULT_TIME_ZONE, formatInvoiceNumber, shiftDay, todayIn } from '@divan/core';
// The server's own fingerprint (the AEAT's "huella"; its three published examples are its unit tests).
import { registrationFingerprint, type InvoiceType } from '../../apps/server/src/modules/invoices/verifactu/fingerprint';
import type { Dataset } from './dataset';
import { seedPatients } from './patients';

const ZONE = DEFAULT_TIME_ZONE;
/** A valid NIF (DNI 12345678 + letter Z). */
export const SELLER_TAX_ID = '12345678Z';

export type Practice = {
  workspaceId: string;
  therapistId: string;
  sellerKey: string;
  taxId: string;
  patients: number;
  /** Drafts ready to issue (one line each, the patient as buyer). */
  draftIds: string[];
  /** The batch's period (Madrid days, inclusive) and what it holds. */
  batch: { from: string; to: string; invoices: number; sessions: number };
  seconds: number;
};

async function api(ds: Dataset, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${ds.server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${ds.session.accessToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

/** The buyer of an invoice to patient `p` (a row of patients), as the server's `buyerOf` builds it. */
export const BUYER_OF_PATIENT = `jsonb_build_object('kind', 'patient', 'fullName', coalesce(nullif(p.billing_full_name, ''), concat_ws(' ', p.first_name, p.last_name)), 'taxId', p.billing_tax_id,
                 'line1', p.billing_line1, 'line2', p.billing_line2, 'city', p.billing_city, 'zipCode', p.billing_zip_code, 'country', p.billing_country, 'email', p.email)`;

export async function seedPractice(
  ds: Dataset,
  o: { patients: number; drafts: number; batchInvoices: number; sessionsPerInvoice: number },
): Promise<Practice> {
  if (!ds.databaseUrl) throw new Error('invoicing is measured on PostgreSQL');
  if (o.batchInvoices > o.patients)
    throw new Error(
      `the batch invoices one patient each: BENCH_BATCH_INVOICES (${o.batchInvoices}) > BENCH_INVOICE_PATIENTS (${o.patients})`,
    );
  const started = performance.now();
  const { workspaceId } = await seedPatients(ds, o.patients);
  const therapistId = ds.session.userId;
  const client = new pg.Client({ connectionString: ds.databaseUrl });
  await client.connect();
  try {
    // Batches are an Advance feature; the patients get a billing address besides their tax id.
    await client.query(`update workspaces set plan_id = 'advance', plan_seats = 1 where id = $1`, [workspaceId]);
    await client.query(
      `update patients set billing_line1 = 'Calle Mayor ' || (abs(hashtext(id::text)) % 200 + 1), billing_city = 'Madrid', billing_zip_code = '28013', billing_country = 'España'
        where workspace_id = $1`,
      [workspaceId],
    );
    await api(ds, 'PUT', '/api/v1/me/billing', {
      fullName: 'Teresa Bench Terapeuta',
      taxId: SELLER_TAX_ID,
      line1: 'Calle de Alcalá 1',
      city: 'Madrid',
      zipCode: '28014',
      country: 'España',
    });

    // One draft through the API: the template of the others (its seller, taxes, totals and line).
    const first = await client.query<{ id: string }>(`select id from patients where workspace_id = $1 order by id limit 1`, [workspaceId]);
    const template = (await api(ds, 'POST', `/api/v1/workspaces/${workspaceId}/invoices`, {
      patientId: first.rows[0]!.id,
      lines: [{ description: 'Sesión de psicoterapia individual', unitPriceCents: 6000 }],
    })) as { id: string; status: string; sellerType: string };
    if (template.status !== 'draft' || template.sellerType !== 'therapist')
      throw new Error(`the template draft is ${template.status}, seller ${template.sellerType}`);
    // Every column is the template's but the id, the patient, the buyer and the times: columns added
    // to the schema later are copied as the API wrote them, without this file knowing them.
    const columns = async (table: string) =>
      (
        await client.query<{ name: string }>(
          `select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = $1 order by ordinal_position`,
          [table],
        )
      ).rows.map((r) => r.name);
    const own: Record<string, string> = {
      patient_id: 'p.id',
      buyer: BUYER_OF_PATIENT,
      created_at: 'now()',
      updated_at: 'now()',
    };
    const invoiceCols = (await columns('invoices')).filter((c) => c !== 'id');
    const lineCols = (await columns('invoice_lines')).filter((c) => c !== 'id' && c !== 'invoice_id');
    const q = (c: string) => `"${c}"`;
    const drafts = await client.query<{ id: string }>(
      `with p as (select id, first_name, last_name, email, billing_full_name, billing_tax_id, billing_line1, billing_line2, billing_city, billing_zip_code, billing_country,
                         (row_number() over (order by id)) - 1 as i
                    from patients where workspace_id = $1),
            t as (select * from invoices where id = $2),
            ins as (insert into invoices (${invoiceCols.map(q).join(', ')})
                    select ${invoiceCols.map((c) => own[c] ?? `t.${q(c)}`).join(', ')}
                      from generate_series(1, $3::int) n
                      join p on p.i = n % $4
                     cross join t
                    returning id),
            lines as (insert into invoice_lines (invoice_id, ${lineCols.map(q).join(', ')})
                      select ins.id, ${lineCols.map((c) => `l.${q(c)}`).join(', ')} from ins cross join invoice_lines l where l.invoice_id = $2)
       select id from ins`,
      [workspaceId, template.id, o.drafts - 1, o.patients],
    );

    // The batch: a past month (28 days) of completed, not-yet-invoiced online sessions, weekly, for the
    // first `batchInvoices` patients: one invoice of `sessionsPerInvoice` lines each.
    const today = todayIn(ZONE);
    const from = shiftDay(today, -28);
    const to = shiftDay(today, -1);
    const sessions = await client.query(
      `with p as (select id, (row_number() over (order by id)) - 1 as i from patients where workspace_id = $1 order by id limit $2)
       insert into sessions (workspace_id, patient_id, therapist_id, starts_at, ends_at, time_zone, status, completed_at, price, payments_receiver, payment_status,
                             modality, reminders, invoiced, video_conference, created_by, created_at, updated_at)
       select $1, p.id, $4, s, s + interval '50 minutes', $5, 'completed', s + interval '50 minutes', 6000, 'therapist', 'pending',
              'online', '[]'::jsonb, false, 'own', $4, s - interval '14 days', s + interval '50 minutes'
         from p
        cross join generate_series(0, $3::int - 1) j
        cross join lateral (select ((($6::date + ((p.i % 7 + 7 * j) % 28)::int) + make_time(8 + (p.i / 7 % 12)::int, 0, 0)) at time zone $5) as s) x`,
      [workspaceId, o.batchInvoices, o.sessionsPerInvoice, therapistId, ZONE, from],
    );
    // A live database is vacuumed by autovacuum; measure that steady state.
    await client.query('vacuum analyze');
    await client.query('checkpoint');
    return {
      workspaceId,
      therapistId,
      sellerKey: `user:${therapistId}`,
      taxId: SELLER_TAX_ID,
      patients: o.patients,
      draftIds: [template.id, ...drafts.rows.map((r) => r.id)],
      batch: { from, to, invoices: o.batchInvoices, sessions: sessions.rowCount ?? 0 },
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await client.end();
  }
}

export type SeriesCheck = {
  /** Issued ordinary invoices of the seller. */
  issued: number;
  /** Positions whose number is not the next one (gaps and duplicates), or whose printed number does not match. */
  numberingFaults: number;
  /** The series' counter (must equal `issued`). */
  counterLast: number;
  /** Records of the issuer's chain. */
  records: number;
  /** Records whose position or previous fingerprint does not follow the record before. */
  chainBreaks: number;
  /** Records whose fingerprint, recomputed from their own fields, differs. */
  badFingerprints: number;
  /** Issued invoices without exactly one record of their number, and records of no such invoice. */
  unmatched: number;
};

/** The seller's series and the issuer's chain as the database holds them, checked end to end. */
export async function checkSeries(databaseUrl: string, p: Pick<Practice, 'sellerKey' | 'taxId'>): Promise<SeriesCheck> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // Per series (prefix and year): 1, 2, 3… and the number printed from them.
    const invoices = await client.query<{ id: string; series: string; sequence: number; number: string }>(
      `select id, series, sequence, number from invoices
        where seller_key = $1 and status = 'issued' and kind = 'ordinary' order by series, sequence, number`,
      [p.sellerKey],
    );
    let numberingFaults = 0;
    let expected = 0;
    invoices.rows.forEach((r, i) => {
      expected = i > 0 && invoices.rows[i - 1]!.series === r.series ? expected + 1 : 1;
      const printed = formatInvoiceNumber({ prefix: r.series.slice(0, -4), year: Number(r.series.slice(-4)), sequence: expected });
      if (r.sequence !== expected || r.number !== printed) numberingFaults++;
    });
    const counter = await client.query<{ last: number }>(
      `select coalesce(sum(last), 0)::int as last from invoice_counters where seller_key = $1 and kind = 'ordinary'`,
      [p.sellerKey],
    );
    type Rec = {
      position: number;
      invoice_id: string;
      invoice_number: string;
      issue_date: string;
      invoice_type: string;
      vat_total: number;
      total: number;
      previous_fingerprint: string | null;
      fingerprint: string;
      generated_at: string;
    };
    const records = await client.query<Rec>(
      `select position::int as position, invoice_id, invoice_number, issue_date::text as issue_date, invoice_type, vat_total, total, previous_fingerprint, fingerprint, generated_at
         from verifactu_records where issuer_tax_id = $1 order by position`,
      [p.taxId],
    );
    let chainBreaks = 0;
    let badFingerprints = 0;
    records.rows.forEach((r, i) => {
      const before = records.rows[i - 1];
      if (r.position !== i + 1 || r.previous_fingerprint !== (before ? before.fingerprint : null)) chainBreaks++;
      const again = registrationFingerprint({
        issuerTaxId: p.taxId,
        number: r.invoice_number,
        issueDate: r.issue_date,
        invoiceType: r.invoice_type as InvoiceType,
        vatTotalCents: r.vat_total,
        totalCents: r.total,
        previousFingerprint: r.previous_fingerprint,
        generatedAt: r.generated_at,
      });
      if (again !== r.fingerprint) badFingerprints++;
    });
    const byInvoice = new Map<string, string[]>();
    for (const r of records.rows) byInvoice.set(r.invoice_id, [...(byInvoice.get(r.invoice_id) ?? []), r.invoice_number]);
    let unmatched = 0;
    for (const inv of invoices.rows) {
      const numbers = byInvoice.get(inv.id);
      if (numbers?.length !== 1 || numbers[0] !== inv.number) unmatched++;
      byInvoice.delete(inv.id);
    }
    unmatched += byInvoice.size;
    return {
      issued: invoices.rows.length,
      numberingFaults,
      counterLast: counter.rows[0]!.last,
      records: records.rows.length,
      chainBreaks,
      badFingerprints,
      unmatched,
    };
  } finally {
    await client.end();
  }
}

/** What a finished batch left: its invoices issued, with one line per session, and the sessions invoiced. */
export async function checkBatch(
  databaseUrl: string,
  workspaceId: string,
  invoiceIds: string[],
  period: { from: string; to: string },
): Promise<{ issued: number; lines: number; sessionsLeft: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const got = await client.query<{ issued: number; lines: number }>(
      `select count(distinct i.id) filter (where i.status = 'issued')::int as issued, count(l.id)::int as lines
         from invoices i left join invoice_lines l on l.invoice_id = i.id and l.session_id is not null
        where i.workspace_id = $1 and i.id = any($2::uuid[])`,
      [workspaceId, invoiceIds],
    );
    const left = await client.query<{ n: number }>(
      `select count(*)::int as n from sessions
        where workspace_id = $1 and status = 'completed' and not invoiced
          and starts_at >= ($2::date)::timestamp at time zone $4 and starts_at < (($3::date) + 1)::timestamp at time zone $4`,
      [workspaceId, period.from, period.to, ZONE],
    );
    return { issued: got.rows[0]!.issued, lines: got.rows[0]!.lines, sessionsLeft: left.rows[0]!.n };
  } finally {
    await client.end();
  }
}

/**
 * EXPLAIN ANALYZE of the lookups by invoice on the tables that grow with every issue: the registration
 * record of an invoice (read when presenting it, and by the AEAT sender on `invoice.issued`).
 */
export async function explainLookups(databaseUrl: string, sellerKey: string): Promise<Record<string, string[]>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const last = await client.query<{ id: string }>(
      `select id from invoices where seller_key = $1 and status = 'issued' order by issued_at desc limit 1`,
      [sellerKey],
    );
    const id = last.rows[0]?.id;
    if (!id) return {};
    const plan = async (q: string) => {
      await client.query(q, [id]);
      return (await client.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers, costs off) ${q}`, [id])).rows.map(
        (r) => r['QUERY PLAN'],
      );
    };
    const size = await client.query<{ n: number }>(`select count(*)::int as n from verifactu_records`);
    return {
      [`registration record of an invoice (${size.rows[0]!.n} records)`]: await plan(
        `select * from verifactu_records where invoice_id = $1 and record_type = 'registration' limit 1`,
      ),
    };
  } finally {
    await client.end();
  }
}
