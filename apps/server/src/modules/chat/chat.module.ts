import { defineModule } from '../../platform/modules/define-module';
import { ChatAccess } from './chat-access';
import { ChatOfficeHoursService } from './chat-office-hours';
import { ChatRealtime } from './chat-realtime';
import { ChatUnreadMail } from './chat-unread-mail';
import { chatRoutes } from './chat.routes';
import { chatPatientRoutes } from './chat.patient.routes';
import { ChatService } from './chat.service';
import type { PatientLink } from './chat.types';

declare module '../../platform/modules/define-module' {
  interface Provided {
    /** The chat of patient files, both sides. */
    chat: ChatService;
    /** The unread-messages mail (its job; tests run it). */
    chatUnreadMail: ChatUnreadMail;
    /** Tests only: the chat's patient side reads this link instead of the patients' accounts' one. */
    linkChatPatients: (link: PatientLink) => void;
    /** A port the chat declares, provided by the patients' accounts module (chat.types.ts). */
    chatPatientLink: PatientLink;
  }
}

/**
 * The chat (issue 15): the service for both sides, its websocket events (sent to users directly,
 * chat-realtime.ts), the unread mail job and the members' and the patient's routes.
 */
export const chatModule = defineModule({
  name: 'chat',
  needs: ['users', 'workspaces', 'patients', 'documents', 'chatPatientLink'],
  build: (d, p) => {
    // The patients' accounts' link, which a test may replace with its own (`linkChatPatients`).
    let current = d.chatPatientLink;
    const link: PatientLink = {
      fileOf: (account, fileId) => current.fileOf(account, fileId),
      accountsOf: (fileId) => current.accountsOf(fileId),
      filesOf: (account) => current.filesOf(account),
    };
    const access = new ChatAccess(d.patients, d.workspaces);
    const events = new ChatRealtime(p.realtime, access, p.log, link);
    const officeHours = new ChatOfficeHoursService(p.db);
    const chat = new ChatService({
      db: p.db,
      cipher: p.cipher,
      patients: d.patients,
      users: d.users,
      documents: d.documents,
      access,
      realtime: events,
      officeHours,
      claim: (tx, key) => p.jobs.claim(tx, key),
      link,
      clock: p.clock,
    });
    const chatUnreadMail = new ChatUnreadMail({
      db: p.db,
      jobs: p.jobs,
      mailer: p.mailer,
      users: d.users,
      patients: d.patients,
      access,
      link: () => link,
      publicUrl: p.config.publicUrl,
      clock: p.clock,
      log: p.log,
    });
    events.start(
      {
        ofUser: (userId) => chat.countersOfUser(userId),
        ofPatient: async (account) => chat.patientCounters(account, await link.filesOf(account)),
      },
      (userId, fileId) => access.workspaceOf(userId, fileId),
    );
    return {
      provides: { chat, chatUnreadMail, linkChatPatients: (l: PatientLink) => void (current = l) },
      jobs: [chatUnreadMail.queue],
      routes: (app) => app.register(chatRoutes, { chat, officeHours }).register(chatPatientRoutes, { chat, link: () => link }),
    };
  },
});
