/**
 * Property tests run a quarter of their cases by default (`npm test`, CI) and the full count under
 * `DEEP=1` (a nightly or pre-release run): the same seeded cases, the first of them always included.
 */
export const DEEP = process.env.DEEP === '1';

/** How many cases a property runs: `full` under DEEP=1, else `quick` (a quarter of `full`, at least 10). */
export const propertyRuns = (full: number, quick = Math.max(10, Math.ceil(full / 4))): number => (DEEP ? full : quick);
