/**
 * The same day and UTC time `months` later, the day clamped to the target month's last (31 January + 1 →
 * 28/29 February), as Stripe anchors a billing period: a trial or a gift that runs months, a period's end.
 */
export function addMonthsUtc(d: Date, months: number): Date {
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), last));
  return target;
}
