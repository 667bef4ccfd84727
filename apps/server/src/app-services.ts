import type { Database } from './platform/db/database';
import type { Jobs } from './platform/jobs/jobs';
import type { Mailer } from './platform/mail/mailer';
import type { Realtime } from './platform/realtime/realtime';
import type { EventBus } from './platform/events/event-bus';
import type { PrivateFileStore } from './platform/storage/private-file-store';
import type { AuthService } from './modules/auth/auth.service';
import type { MembersService } from './modules/workspaces/members.service';
import type { WorkspacesService } from './modules/workspaces/workspaces.service';
import type { Cipher } from './platform/crypto/cipher';
import type { HistoryService } from './modules/patients/history.service';
import type { PatientsService } from './modules/patients/patients.service';
import type { DocumentsService } from './modules/documents/documents.service';
import type { UsersService } from './modules/users/users.service';
import type { wirePayments } from './modules/payments/payments.wiring';
import type { SandboxGateway } from './platform/payments/sandbox/sandbox-gateway';
import type { SessionsService } from './modules/sessions/sessions.service';
import type { RemindersService } from './modules/sessions/reminders/reminders.service';
import type { MeetService } from './modules/meet/meet.service';
import type { ConsentTemplatesService } from './modules/consents/consent-templates.service';
import type { DocumentSeal } from './platform/documents/seal';
import type { ConsentEnvelopesService } from './modules/consents/consent-envelopes.service';
import type { ConsentSigningService } from './modules/consents/consent-signing.service';
import type { ChatService } from './modules/chat/chat.service';
import type { ChatUnreadMail } from './modules/chat/chat-unread-mail';
import type { PatientLink } from './modules/chat/chat.types';

/** The app's services, on `app.services` (operator commands and tests build data through them). */
export type AppServices = {
  database: Database;
  realtime: Realtime;
  events: EventBus;
  jobs: Jobs;
  mailer: Mailer;
  users: UsersService;
  auth: AuthService;
  workspaces: WorkspacesService;
  patients: PatientsService;
  cipher: Cipher;
  // For operator commands (`npm run demo`) and tests that build data through services.
  members: MembersService;
  history: HistoryService;
  documents: DocumentsService;
  sessions: SessionsService;
  reminders: RemindersService;
  /** The video room: `meet.patientLink(session)` is the patient's link (reminders put it in their emails). */
  meet: MeetService;
  /** Patient, invoice and contract files (no route: modules serve them after their own check). */
  privateFiles: PrivateFileStore;
  /** Card payments; `paymentsSandbox` is the built-in provider when no Stripe keys are set (tests drive its hosted pages). */
  payments: ReturnType<typeof wirePayments>;
  paymentsSandbox: SandboxGateway | null;
  /** Consent templates; `currentVersion` and `frozen` are what sending and signing read. */
  consentTemplates: ConsentTemplatesService;
  /** Sent consents and their signing; `seal` is the installation's PDF seal (opened once). */
  consentEnvelopes: ConsentEnvelopesService;
  consentSigning: ConsentSigningService;
  seal: () => DocumentSeal;
  /** The chat of patient files (both sides), its unread mail job, and how the patients' accounts module links itself. */
  chat: ChatService;
  chatUnreadMail: ChatUnreadMail;
  linkChatPatients: (link: PatientLink) => void;
};

declare module 'fastify' {
  interface FastifyInstance {
    services: AppServices;
  }
}
