import type { AnalyticsTab } from '@divan/core';
import { downloadFile } from '@/lib/file-transfer';
import { analyticsPath, analyticsQuery, type AnalyticsFilter } from './analytics-api';

/**
 * A tab as xlsx or CSV. Apart from the queries: downloads bring the whole error catalogue (file-transfer),
 * which the dashboard's money card must not pull into the shell.
 */
export const downloadTab = (wid: string, tab: AnalyticsTab, f: AnalyticsFilter, format: 'xlsx' | 'csv') =>
  downloadFile(`${analyticsPath(wid)}/${tab}/export?${analyticsQuery(f, { format })}`, `estadisticas-${tab}.${format}`);
