import { DEFAULT_TIME_ZONE, todayIn, type InvoiceSeriesCounters } from '@divan/core';
import type { Db } from '../../../platform/db/database';
import { invoicesRepository } from '../invoices.repository';

/** The series' counters, for the billing settings. */
export class InvoiceSeries {
  constructor(private readonly db: Db) {}

  /** A seller's counters of this year (Madrid): the settings say the next number from them, not «…-0001». */
  async counters(sellerKey: string, now = new Date()): Promise<InvoiceSeriesCounters> {
    const year = Number(todayIn(DEFAULT_TIME_ZONE, now).slice(0, 4));
    return { year, counters: await invoicesRepository(this.db).seriesCounters(sellerKey, year) };
  }
}
