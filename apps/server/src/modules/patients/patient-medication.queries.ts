import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';

/**
 * The start-up statements that retire the clear `treatment_medication` column: raw SQL on purpose, since
 * the column is no longer in the schema Drizzle knows.
 */
export type ClearRow = { id: string; workspace_id: string; treatment_medication: string };
type Exec = Pick<Db, 'execute'>;
const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

export const clearColumnExists = async (db: Exec) =>
  rowsOf(
    await db.execute(
      sql`select 1 from information_schema.columns where table_schema = current_schema() and table_name = 'patients' and column_name = 'treatment_medication'`,
    ),
  ).length > 0;

export const clearMedication = async (db: Exec) =>
  rowsOf<ClearRow>(
    await db.execute(sql`select id, workspace_id, treatment_medication from patients where treatment_medication is not null`),
  );

export const lockPatientsTable = async (db: Exec) => {
  await db.execute(sql`lock table patients in access exclusive mode`);
};

/** The sealed values written, 500 rows a statement. */
export const writeSealedMedication = async (db: Exec, sealed: [id: string, enc: string][]) => {
  const values = sealed.map(([id, enc]) => sql`(${id}::uuid, ${enc})`);
  for (let i = 0; i < values.length; i += 500)
    await db.execute(
      sql`update patients set treatment_medication_enc = v.enc from (values ${sql.join(values.slice(i, i + 500), sql`, `)}) as v(id, enc) where patients.id = v.id`,
    );
};

export const dropClearColumn = async (db: Exec) => {
  await db.execute(sql`alter table patients drop column treatment_medication`);
};
