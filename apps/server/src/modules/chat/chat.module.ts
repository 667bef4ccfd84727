import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Cipher } from '../../platform/crypto/cipher';
import type { Db } from '../../platform/db/database';
import type { Jobs } from '../../platform/jobs/jobs';
import type { Mailer } from '../../platform/mail/mailer';
import type { Realtime } from '../../platform/realtime/realtime';
import type { DocumentsService } from '../documents/documents.service';
import type { PatientsService } from '../patients/patients.service';
import type { UsersService } from '../users/users.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { ChatAccess } from './chat-access';
import { ChatOfficeHoursService } from './chat-office-hours';
import { ChatRealtime } from './chat-realtime';
import { ChatUnreadMail } from './chat-unread-mail';
import { chatRoutes } from './chat.routes';
import { chatPatientRoutes } from './chat.patient.routes';
import { ChatService } from './chat.service';
import { NO_PATIENT_LINK, type PatientLink } from './chat.types';

type Deps = {
  db: Db;
  cipher: Cipher;
  realtime: Realtime;
  jobs: Jobs;
  mailer: Mailer;
  users: UsersService;
  workspaces: WorkspacesService;
  patients: PatientsService;
  documents: DocumentsService;
  publicUrl: string;
  log: FastifyBaseLogger;
  clock?: () => Date;
};

/**
 * The chat (issue 15): the service for both sides, its websocket events, the unread mail job and the
 * members' and the patient's routes. The patients' accounts module calls `chat.linkPatients(...)` when it
 * is wired; until then the patient's routes reach no file.
 */
export function wireChat(d: Deps) {
  const access = new ChatAccess(d.patients, d.workspaces);
  const events = new ChatRealtime(d.realtime, access, d.log);
  const officeHours = new ChatOfficeHoursService(d.db);
  const chat = new ChatService({
    db: d.db,
    cipher: d.cipher,
    patients: d.patients,
    users: d.users,
    documents: d.documents,
    access,
    realtime: events,
    officeHours,
    claim: (tx, key) => d.jobs.claim(tx, key),
    clock: d.clock,
  });
  let link: PatientLink = NO_PATIENT_LINK;
  const linkPatients = (l: PatientLink) => {
    link = l;
    chat.linkPatients(l);
  };
  const unreadMail = new ChatUnreadMail({
    db: d.db,
    jobs: d.jobs,
    mailer: d.mailer,
    users: d.users,
    patients: d.patients,
    access,
    link: () => link,
    publicUrl: d.publicUrl,
    clock: d.clock,
    log: d.log,
  });
  events.start(
    {
      ofUser: (userId) => chat.countersOfUser(userId),
      ofPatient: async (account) => chat.patientCounters(account, await link.filesOf(account)),
    },
    (userId, fileId) => access.workspaceOf(userId, fileId),
  );
  const register = async (app: FastifyInstance) => {
    await app.register(chatRoutes, { chat, officeHours });
    await app.register(chatPatientRoutes, { chat, link: () => link });
  };
  return { chat, unreadMail, linkPatients, register };
}
