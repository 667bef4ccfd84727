/**
 * ical-generator, its VTIMEZONE data and luxon, loaded with the first calendar file written (a booking's
 * invitation, a calendar feed): a server that writes none holds neither their code nor a second, ESM copy
 * of luxon beside the one the job runner's cron parser requires.
 */
export async function loadIcal() {
  const [generator, { getVtimezoneComponent }, { DateTime }] = await Promise.all([
    import('ical-generator'),
    import('@touch4it/ical-timezones'),
    import('luxon'),
  ]);
  return { ical: generator.default, generator, getVtimezoneComponent, DateTime };
}
