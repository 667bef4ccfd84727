import { defineModule } from '../../platform/modules/define-module';
import { measuresRoutes } from './measures.routes';
import { MeasureSchedulesService } from './measure-schedules.service';
import { MeasuresService } from './measures.service';

declare module '../../platform/modules/define-module' {
  interface Provided {
    /** Outcome measures: administrations, trends, risk flags; the patient export reads them. */
    measures: MeasuresService;
    /** Measures sent on a schedule tied to the patient's sessions. */
    measureSchedules: MeasureSchedulesService;
  }
}

/** Outcome measures (issue 32): sending by link, in-session administration, scoring, reliable change, risk flags. */
export const measuresModule = defineModule({
  name: 'measures',
  needs: ['users', 'workspaces', 'patients'],
  // The schedules read the patient's next sessions; sessions are built later (they need more).
  later: ['upcomingSessions'],
  build: ({ users, workspaces, patients, upcomingSessions }, p) => {
    const measures = new MeasuresService({
      db: p.db,
      appSecret: p.config.appSecret,
      publicUrl: p.config.publicUrl,
      mailer: p.mailer,
      jobs: p.jobs,
      cipher: p.cipher,
      users,
      workspaces,
      patients,
      clock: p.clock,
    });
    const measureSchedules = new MeasureSchedulesService({
      db: p.db,
      jobs: p.jobs,
      patients,
      measures,
      clock: p.clock,
      upcomingSessions: (...a) => upcomingSessions()(...a),
    });
    return {
      provides: { measures, measureSchedules },
      routes: (app) =>
        app.register(measuresRoutes, { measures, schedules: measureSchedules, perIpPerMinute: p.config.rateLimit.perIpPerMinute }),
      sweeps: {
        'measures.reminders': () => measures.remindDue(),
        'measures.expire': () => measures.expireDue(),
        // Schedules: each pending session's measure 24 h ahead (a session booked later gets it at the next sweep).
        'measures.schedules': () => measureSchedules.sendScheduled(),
      },
    };
  },
});
