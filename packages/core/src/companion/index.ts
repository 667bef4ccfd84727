// The patient's own side of Diván (issue 15): contracts of /api/v1/patient/… that the companion (/p/…) reads.
export * from './companion.contracts';
export * from './companion-billing.contracts';
