import {
  ANALYTICS_TAB_LABELS,
  analyticsKeyLabel,
  centsToDecimalText,
  formatDayEs,
  WEEKDAY_LABELS,
  type AnalyticsKeyKind,
  type AnalyticsResponse,
} from '@divan/core';

/** A value of an exported table: a count, an amount in cents (written as euros), a rate, or text. */
type Value = number | string | { cents: number } | { rate: number | null } | null;
/** One table of a tab's export: a sheet in xlsx, a block in CSV. */
type Section = { title: string; head: string[]; rows: Value[][] };

const rate = (part: number, whole: number): Value => ({ rate: whole ? part / whole : null });
const money = (cents: number): Value => ({ cents });
const counted = (title: string, kind: AnalyticsKeyKind, list: { key: string; count: number }[] | null): Section[] =>
  list ? [{ title, head: ['', 'Pacientes'], rows: list.map((r) => [analyticsKeyLabel(kind, r.key), r.count]) }] : [];

/** The tables of a tab, in the order the screen shows them: the cards against the period before, then each breakdown. */
export function sectionsOf(r: AnalyticsResponse): Section[] {
  const { period, previousPeriod } = r.stats;
  const head = [
    '',
    `${formatDayEs(period.from)} – ${formatDayEs(period.to)}`,
    `${formatDayEs(previousPeriod.from)} – ${formatDayEs(previousPeriod.to)}`,
  ];
  switch (r.tab) {
    case 'sessions': {
      const { totals: t, previous: p } = r.stats;
      return [
        {
          title: 'Resumen',
          head,
          rows: [
            ['Sesiones', t.scheduled, p.scheduled],
            ['Realizadas', t.completed, p.completed],
            ['Pendientes', t.pending, p.pending],
            ['Canceladas', t.canceled, p.canceled],
            ['Canceladas por el paciente', t.canceledByReason.patient, p.canceledByReason.patient],
            ['Canceladas por el terapeuta', t.canceledByReason.therapist, p.canceledByReason.therapist],
            ['Cancelaciones tardías', t.canceledByReason.late, p.canceledByReason.late],
            ['No presentadas', t.canceledByReason.no_show, p.canceledByReason.no_show],
            ['Tasa de no presentación', rate(t.canceledByReason.no_show, t.scheduled), rate(p.canceledByReason.no_show, p.scheduled)],
            ['Online', t.online, p.online],
            ['Presenciales', t.presential, p.presential],
            ['Minutos reservados', t.bookedMinutes, p.bookedMinutes],
          ],
        },
        {
          title: 'Por día',
          head: ['Día', 'Realizadas', 'Pendientes', 'Canceladas'],
          rows: r.stats.byDay.map((d) => [formatDayEs(d.day), d.completed, d.pending, d.canceled]),
        },
        {
          title: 'Por día y hora',
          head: ['Día de la semana', 'Hora', 'Sesiones'],
          rows: r.stats.heatmap.map((h) => [WEEKDAY_LABELS[h.weekday - 1]!, `${String(h.hour).padStart(2, '0')}:00`, h.count]),
        },
        {
          title: 'Por terapeuta',
          head: ['Terapeuta', 'Sesiones', 'Realizadas', 'Canceladas', 'No presentadas', 'Minutos reservados'],
          rows: r.stats.byTherapist.map((x) => [x.name, x.scheduled, x.completed, x.canceled, x.noShows, x.bookedMinutes]),
        },
      ];
    }
    case 'billing': {
      const { totals: t, previous: p, outstanding: o } = r.stats;
      return [
        {
          title: 'Resumen',
          head,
          rows: [
            ['Facturado', money(t.issuedCents), money(p.issuedCents)],
            ['Facturas emitidas', t.issuedCount, p.issuedCount],
            ['Cobrado', money(t.collectedCents), money(p.collectedCents)],
            ['Facturas cobradas', t.collectedCount, p.collectedCount],
            ['Sesiones realizadas sin facturar', t.uninvoicedCount, p.uninvoicedCount],
            ['Importe sin facturar', money(t.uninvoicedCents), money(p.uninvoicedCents)],
            ...(r.stats.projection
              ? [['Previsión del mes', money(r.stats.projection.collectedCents + r.stats.projection.upcomingCents), null] as Value[]]
              : []),
          ],
        },
        {
          title: 'Pendiente de cobro',
          head: ['Antigüedad', 'Facturas', 'Importe'],
          rows: [
            ...o.ageing.map((a) => [analyticsKeyLabel('ageing', a.bucket), a.count, money(a.cents)]),
            ['Total', o.count, money(o.cents)],
          ],
        },
        {
          title: 'Por mes',
          head: ['Mes', 'Facturado', 'Cobrado'],
          rows: r.stats.byMonth.map((m) => [
            `${m.month.slice(5, 7)}/${m.month.slice(0, 4)}`,
            money(m.issuedCents),
            money(m.collectedCents),
          ]),
        },
        {
          title: 'Por forma de pago',
          head: ['Forma de pago', 'Facturas', 'Cobrado'],
          rows: r.stats.byPaymentType.map((x) => [analyticsKeyLabel('paymentType', x.key), x.count, money(x.cents)]),
        },
        {
          title: 'Por terapeuta',
          head: ['Terapeuta', 'Facturado', 'Cobrado', 'Sesiones realizadas', 'Honorarios', 'Comisión'],
          rows: r.stats.byTherapist.map((x) => [
            x.name,
            money(x.issuedCents),
            money(x.collectedCents),
            x.completedSessions,
            money(x.feeCents),
            money(x.commissionCents),
          ]),
        },
      ];
    }
    case 'patients': {
      const { totals: t, previous: p, statusNow } = r.stats;
      return [
        {
          title: 'Resumen',
          head,
          rows: [
            ['Pacientes nuevos', t.added, p.added],
            ...(t.discharged === null ? [] : [['Altas', t.discharged, p.discharged] as Value[]]),
            ['Pacientes atendidos', t.seen, p.seen],
            ...(statusNow
              ? [
                  ['Activos hoy', statusNow.active, null] as Value[],
                  ['En pausa hoy', statusNow.paused, null] as Value[],
                  ['Inactivos hoy', statusNow.inactive, null] as Value[],
                ]
              : []),
          ],
        },
        ...counted('Altas por motivo', 'endingReason', r.stats.dischargedByReason),
        ...counted('Por motivo de consulta', 'motive', r.stats.byMotive),
        ...counted('Por procedencia', 'referralSource', r.stats.byReferralSource),
        ...counted('Por tipo de sesión', 'sessionType', r.stats.bySessionType),
        ...counted('Por edad', 'ageBand', r.stats.byAgeBand),
        ...counted('Por género', 'gender', r.stats.byGender),
      ];
    }
    case 'treatments': {
      const { totals: t, previous: p } = r.stats;
      return [
        {
          title: 'Resumen',
          head,
          rows: [
            ['Tratamientos finalizados', t.ended, p.ended],
            ['Abandonos', t.abandoned, p.abandoned],
            ['Tasa de abandono', rate(t.abandoned, t.ended), rate(p.abandoned, p.ended)],
            ['Abandonos tempranos (≤ 3 sesiones)', t.earlyDropouts, p.earlyDropouts],
            ['Duración mediana (días)', t.medianDays, p.medianDays],
            ['Sesiones por tratamiento (mediana)', t.medianSessions, p.medianSessions],
            ['Sesiones realizadas', t.completedSessions, p.completedSessions],
            ['Con otra sesión reservada', t.rebooked, p.rebooked],
            ['Tasa de nueva reserva', rate(t.rebooked, t.completedSessions), rate(p.rebooked, p.completedSessions)],
          ],
        },
        {
          title: 'Por motivo de consulta',
          head: ['Motivo', 'Finalizados', 'Abandonos', 'Tasa de abandono'],
          rows: r.stats.byMotive.map((m) => [analyticsKeyLabel('motive', m.key), m.ended, m.abandoned, rate(m.abandoned, m.ended)]),
        },
      ];
    }
  }
}

const text = (v: Value): string => {
  if (v === null) return '';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : v.toFixed(1).replace('.', ',');
  if (typeof v === 'string') return v;
  if ('cents' in v) return centsToDecimalText(v.cents);
  return v.rate === null ? '' : `${(v.rate * 100).toFixed(1).replace('.', ',')} %`;
};
const csvCell = (v: string) => (/[";\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

export type ExportFile = { body: Buffer; type: string; filename: string };

/** A tab as a file: xlsx (a sheet per table, amounts as euros, rates as percentages) or CSV (the tables one after another). */
export async function exportTab(r: AnalyticsResponse, format: 'xlsx' | 'csv'): Promise<ExportFile> {
  const sections = sectionsOf(r);
  const filename = `estadisticas-${ANALYTICS_TAB_LABELS[r.tab].toLowerCase().replace('ó', 'o')}-${r.stats.period.from}-${r.stats.period.to}.${format}`;
  if (format === 'csv') {
    const lines = sections.flatMap((s) => [
      csvCell(s.title),
      s.head.map(csvCell).join(';'),
      ...s.rows.map((row) => row.map((v) => csvCell(text(v))).join(';')),
      '',
    ]);
    return { body: Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`), type: 'text/csv; charset=utf-8', filename };
  }
  // Loaded at the first export (as the invoices' export does): a server that never exports does not pay for it.
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.Workbook();
  for (const s of sections) {
    const ws = wb.addWorksheet(s.title.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
    ws.addRow(s.head).font = { bold: true };
    for (const row of s.rows) {
      const added = ws.addRow(row.map((v) => (v === null || typeof v !== 'object' ? v : 'cents' in v ? v.cents / 100 : v.rate)));
      row.forEach((v, i) => {
        if (v && typeof v === 'object') added.getCell(i + 1).numFmt = 'cents' in v ? '#,##0.00 €' : '0.0%';
      });
    }
    ws.columns.forEach((col, i) => (col.width = i === 0 ? 36 : 22));
  }
  return {
    body: Buffer.from(await wb.xlsx.writeBuffer()),
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    filename,
  };
}
