/**
 * A time zone's UTC offset at an instant, from the platform's Intl time-zone data: what the zoned
 * rules, the slot tables and the offset labels read, with no date library (so a public page can load
 * them). The same reading as `tzOffset` of @date-fns/tz 1.5.0, which core used before: Intl's
 * `longOffset` name ("GMT+02:00", "GMT" for zero), and a bare offset ('+05:30') read by hand where
 * Intl takes no such zone.
 */

const formats = new Map<string, (date: Date) => string>();
const parsed = new Map<string, number>();
const OFFSET_RE = /([+-]\d\d):?(\d\d)?/;

/** Minutes east of UTC of `timeZone` at `date` (120 in Madrid in summer, −360 in Mexico City); NaN when the zone is unknown. */
export function tzOffset(timeZone: string, date: Date): number {
  try {
    let format = formats.get(timeZone);
    if (!format) {
      format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }).format;
      formats.set(timeZone, format);
    }
    const offset = format(date).split('GMT')[1] ?? '';
    return parsed.get(offset) ?? minutesOf(offset, offset.split(':'));
  } catch {
    const known = parsed.get(timeZone);
    if (known !== undefined) return known;
    const captures = OFFSET_RE.exec(timeZone);
    return captures ? minutesOf(timeZone, captures.slice(1)) : Number.NaN;
  }
}

/** ['+05', '30'] → 330, ['-03'] → −180; remembered under `key`. */
function minutesOf(key: string, values: (string | undefined)[]): number {
  const hours = Number(values[0] || 0);
  const minutes = Number(values[1] || 0);
  const seconds = Number(values[2] || 0) / 60;
  const total = hours * 60 + minutes > 0 ? hours * 60 + minutes + seconds : hours * 60 - minutes - seconds;
  parsed.set(key, total);
  return total;
}
