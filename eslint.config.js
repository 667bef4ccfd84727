import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import divan from './tools/eslint-boundaries.js';

const ROUTES_REGISTER_NO_JOBS =
  'Un *.routes.ts solo atiende peticiones: los trabajos, barridos y manejadores del módulo se registran en su <módulo>.module.ts.';
const SQL_IN_REPOSITORIES =
  'Las consultas viven en el repositorio del módulo (*.repository.ts) o en un *.queries.ts junto a él: este archivo no importa los constructores de consultas de drizzle-orm.';

const LOADED_AT_FIRST_USE =
  'Esta biblioteca pesa en el arranque y en la memoria en reposo (issue 26, decisión 0007): se carga al usarla, con `await import(…)`; aquí solo `import type`.';
/** Libraries a server may never use (exports, documents, card payments, Redis, PostgreSQL…): loaded when first needed. */
const HEAVY_AT_START = [
  'exceljs',
  'mammoth',
  'pdfkit',
  'pdf-lib',
  '@signpdf/placeholder-pdf-lib',
  'stripe',
  'nodemailer',
  'ioredis',
  'pg',
  'sanitize-html',
  'node-forge',
  'ical-generator',
  '@touch4it/ical-timezones',
  'luxon',
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'apps/server/drizzle/**', 'data/**', 'e2e/screenshots/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // ARCHITECTURE.md: no feature imports another on the web; no module uses another's repository or tables;
    // the companion and the booking pages never import each other (they share public-kit/ only).
    files: ['apps/web/src/**/*.{ts,tsx}', 'apps/server/src/**/*.ts'],
    plugins: { divan },
    rules: { 'divan/boundaries': 'error' },
  },
  {
    // Issue 26: what start-up does not need loads at first use. A separate rule from the SQL one below, so
    // neither replaces the other. Tests and their kits load what they like.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.testkit.ts', '**/*.testing.ts', 'apps/server/src/test/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: HEAVY_AT_START.map((name) => ({ name, allowTypeImports: true, message: LOADED_AT_FIRST_USE })) },
      ],
    },
  },
  {
    // Issue 25: SQL lives in repositories, or in a `*.queries.ts` beside one when a statement is the point.
    // Type-only imports (SQL, a column's type) are allowed anywhere. Every module keeps it (issue 25).
    files: ['apps/server/src/modules/**/*.ts'],
    ignores: ['**/*.repository.ts', '**/*.queries.ts', '**/*.tables.ts', '**/*.test.ts', '**/*.testkit.ts', '**/*.testing.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'drizzle-orm', allowTypeImports: true, message: SQL_IN_REPOSITORIES }],
          patterns: [{ group: ['drizzle-orm/*'], allowTypeImports: true, message: SQL_IN_REPOSITORIES }],
        },
      ],
    },
  },
  {
    // Issue 25: a module's jobs, sweeps and handlers are registered in its `<module>.module.ts`, never in a
    // `.routes.ts` (which serves requests only). Repeats the SQL rule above: a later block's
    // no-restricted-imports replaces an earlier one's for the files both match.
    files: ['apps/server/src/modules/**/*.routes.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'drizzle-orm', allowTypeImports: true, message: SQL_IN_REPOSITORIES }],
          patterns: [
            { group: ['drizzle-orm/*'], allowTypeImports: true, message: SQL_IN_REPOSITORIES },
            { group: ['**/platform/jobs/*'], allowTypeImports: true, message: ROUTES_REGISTER_NO_JOBS },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['fastify*', 'react*', 'drizzle*', '@divan/server', '@divan/web'],
              message: 'packages/core imports no app or framework but Zod and CASL.',
            },
          ],
        },
      ],
    },
  },
  {
    // e2e tests reach the server through e2e/support/api.ts (apiAs, publicApi, site), never a raw fetch.
    files: ['e2e/tests/**/*.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'Use e2e/support/api.ts (apiAs(token), publicApi, site) instead of a raw fetch in e2e tests.' },
      ],
    },
  },
);
