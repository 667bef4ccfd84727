/**
 * `@divan/core`: everything, for the server and the signed-in app — the rules (`./rules`: plain code, no
 * Zod, no date library), the Zod contracts (`./contracts`) and the permissions (CASL). A public page
 * imports `@divan/core/rules`.
 */
export * from './rules';
export * from './contracts';

// Who may do what, and which fields each role reads and writes.
export * from './workspaces/permissions';
export * from './workspaces/permits';
export * from './workspaces/field-access';
export * from './patients/patient-fields';
export * from './sessions/session-fields';
