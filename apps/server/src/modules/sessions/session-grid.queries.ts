import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import { queryPrepared } from '../../platform/db/sql-executor';
import { sessionSeries, type SessionSeriesRow } from './series/session-series.tables';
import { locations, sessions, type SessionRow } from './sessions.tables';

/** What a box of the calendar grid draws (session-presenter.ts `presentGrid`), with its location's name and its series' pattern. */
export type GridRow = Pick<
  SessionRow,
  'id' | 'patientId' | 'therapistId' | 'startsAt' | 'endsAt' | 'timeZone' | 'status' | 'modality' | 'locationId' | 'seriesId'
> & {
  locationName: string | null;
  frequency: SessionSeriesRow['frequency'] | null;
  startDay: SessionSeriesRow['startDay'] | null;
  monthlyWeek: SessionSeriesRow['monthlyWeek'] | null;
};

type Row = {
  id: string;
  patient_id: string;
  therapist_id: string;
  starts_ms: number;
  ends_ms: number;
  time_zone: string;
  status: GridRow['status'];
  modality: GridRow['modality'];
  location_id: string | null;
  location_name: string | null;
  series_id: string | null;
  frequency: GridRow['frequency'];
  start_day: string | null;
  monthly_week: number | null;
};

/**
 * The calendar grid's range read as one statement read by the driver (a named prepared statement on
 * PostgreSQL): the instants as epoch milliseconds and the series' day as text, so no row goes through
 * drizzle's mapping or a date parser (a clinic's week is ~3,000 rows; the mapping was a seventh of the
 * read's CPU and most of its garbage). `where` is the repository's scope and filters.
 */
export async function gridRows(db: DbOrTx, where: SQL | undefined, limit: number): Promise<GridRow[]> {
  const rows = await queryPrepared<Row>(
    db,
    sql`select ${sessions.id} as id, ${sessions.patientId} as patient_id, ${sessions.therapistId} as therapist_id,
      floor(extract(epoch from ${sessions.startsAt}) * 1000)::float8 as starts_ms,
      floor(extract(epoch from ${sessions.endsAt}) * 1000)::float8 as ends_ms,
      ${sessions.timeZone} as time_zone, ${sessions.status} as status, ${sessions.modality} as modality,
      ${sessions.locationId} as location_id, ${locations.name} as location_name, ${sessions.seriesId} as series_id,
      ${sessionSeries.frequency} as frequency, ${sessionSeries.startDay}::text as start_day, ${sessionSeries.monthlyWeek} as monthly_week
    from ${sessions}
    left join ${locations} on ${locations.id} = ${sessions.locationId}
    left join ${sessionSeries} on ${sessionSeries.id} = ${sessions.seriesId}
    where ${where ?? sql`true`}
    order by ${sessions.startsAt}, ${sessions.id}
    limit ${limit}`,
  );
  return rows.map((r) => ({
    id: r.id,
    patientId: r.patient_id,
    therapistId: r.therapist_id,
    startsAt: new Date(r.starts_ms),
    endsAt: new Date(r.ends_ms),
    timeZone: r.time_zone,
    status: r.status,
    modality: r.modality,
    locationId: r.location_id,
    locationName: r.location_name,
    seriesId: r.series_id,
    frequency: r.frequency,
    startDay: r.start_day,
    monthlyWeek: r.monthly_week,
  }));
}
