import { defineModule } from '../../platform/modules/define-module';
import { PatientAccountsService } from './patient-accounts.service';
import { PatientConnectService } from './patient-connect.service';
import { patientAccountsRoutes } from './patient-accounts.routes';
import { patientConnectRoutes } from './patient-connect.routes';

declare module '../../platform/modules/define-module' {
  interface Provided {
    /** The patients' own accounts (the companion's sign-in) and the files connected to each. */
    patientAccounts: PatientAccountsService;
  }
}

/** The patient's own account (issue 15): the realm `patients`, connecting files, and their routes. Provides the chat's patient link. */
export const patientAccountsModule = defineModule({
  name: 'patient-accounts',
  needs: ['auth', 'patients', 'workspaces', 'users', 'audit'],
  build: ({ auth, patients, workspaces, users, audit }, p) => {
    const d = {
      db: p.db,
      auth,
      mailer: p.mailer,
      patients,
      workspaces,
      users,
      audit,
      emailLimiter: p.emailLimiter,
      hash: p.tokens.hashSecret,
      publicUrl: p.config.publicUrl,
    };
    const perIpPerMinute = p.config.rateLimit.perIpPerMinute;
    const accounts = new PatientAccountsService(d);
    const connect = new PatientConnectService({ ...d, accounts });
    return {
      provides: { patientAccounts: accounts, chatPatientLink: accounts.chatLink },
      routes: (app) =>
        app
          .register(patientConnectRoutes, { connect, perIpPerMinute })
          .register(patientAccountsRoutes, { accounts, connect, perIpPerMinute }),
    };
  },
});
