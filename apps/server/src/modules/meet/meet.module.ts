import { defineModule } from '../../platform/modules/define-module';
import { MeetHub, type MeetHubOptions } from './meet-hub';
import { meetRoutes } from './meet.routes';
import { MeetService } from './meet.service';

declare module '../../platform/modules/define-module' {
  interface Provided {
    /** The video room: `meet.patientLink(session)` is the patient's link (reminders put it in their emails). */
    meet: MeetService;
  }
}

/** The video room of online sessions: who may enter, the patient's link, and the room's socket. Fills sessions' `meetLink`. */
export const meetModule = (options?: MeetHubOptions) =>
  defineModule({
    name: 'meet',
    needs: ['sessions', 'users', 'sessionByLink'],
    build: (d, p) => {
      const meet = new MeetService({
        appSecret: p.config.appSecret,
        publicUrl: p.config.publicUrl,
        iceServers: p.config.iceServers,
        sessions: d.sessions,
        users: d.users,
        sessionByLink: d.sessionByLink,
      });
      const hub = new MeetHub(p.realtime, meet.tokens, p.log, options);
      return {
        provides: { meet, meetLink: (session: { id: string }) => meet.patientLink(session) },
        routes: async (app) => {
          await app.register(meetRoutes, { meet, perIpPerMinute: p.config.rateLimit.perIpPerMinute });
          await app.register(async (scope) => hub.register(scope));
        },
        start: () => hub.start(),
        stop: () => hub.stop(),
      };
    },
  });
