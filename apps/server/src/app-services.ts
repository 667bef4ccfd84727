import type { Provided } from './platform/modules/define-module';
import type { Platform } from './platform/modules/platform';

/** What operator commands and tests read of the platform on `app.services`. */
const PLATFORM_KEYS = ['database', 'realtime', 'events', 'jobs', 'mailer', 'cipher', 'privateFiles', 'storage', 'lifecycle'] as const;
/** …and of the modules' provides (each documented where its module declares it, `<module>.module.ts`). */
const MODULE_KEYS = [
  'users',
  'auth',
  'workspaces',
  'patients',
  'members',
  'history',
  'documents',
  'sessions',
  'reminders',
  'measures',
  'measureSchedules',
  'sessionMonthStats',
  'invoiceMonthStats',
  'meet',
  'payments',
  'paymentsSandbox',
  'consentTemplates',
  'consentEnvelopes',
  'consentSigning',
  'seal',
  'chat',
  'chatUnreadMail',
  'linkChatPatients',
  'operatorInvoicing',
  'googleCalendar',
] as const satisfies readonly (keyof Provided)[];

/** The app's services, on `app.services` (operator commands and tests build data through them). */
export type AppServices = Pick<Platform, (typeof PLATFORM_KEYS)[number]> & Pick<Provided, (typeof MODULE_KEYS)[number]>;

/** `app.services`, from the platform and what the modules provide (a key no module provided stops the start). */
export function appServices(platform: Platform, provided: Partial<Provided>): AppServices {
  const services: Record<string, unknown> = {};
  for (const k of PLATFORM_KEYS) services[k] = platform[k];
  for (const k of MODULE_KEYS) {
    if (!(k in provided)) throw new Error(`app.services: no module provides ${k}`);
    services[k] = provided[k];
  }
  return services as AppServices;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: AppServices;
  }
}
