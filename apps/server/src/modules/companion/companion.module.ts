import { defineModule } from '../../platform/modules/define-module';
import { PatientOwnSessions } from '../sessions/patient-own-sessions';
import { CompanionSessionsService } from './companion-sessions.service';
import { companionRoutes } from './companion.routes';

/** The patient's own side of Diván (issue 15): their sessions and shared documents, under `/api/v1/patient/files/:id`. */
export const companionModule = defineModule({
  name: 'companion',
  needs: ['patientAccounts', 'documents', 'users', 'bookingManage', 'meetLink'],
  build: (d, p) => {
    const sessions = new CompanionSessionsService({
      accounts: d.patientAccounts,
      own: new PatientOwnSessions(p.db),
      bookings: d.bookingManage,
      users: d.users,
      meetLink: d.meetLink,
      clock: p.clock,
    });
    return {
      provides: {},
      routes: (app) => app.register(companionRoutes, { sessions, accounts: d.patientAccounts, documents: d.documents }),
    };
  },
});
