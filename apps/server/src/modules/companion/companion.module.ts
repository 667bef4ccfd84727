import type { FastifyInstance } from 'fastify';
import type { Db } from '../../platform/db/database';
import type { DocumentsService } from '../documents/documents.service';
import type { PatientAccountsService } from '../patient-accounts/patient-accounts.service';
import { PatientOwnSessions } from '../sessions/patient-own-sessions';
import type { UsersService } from '../users/users.service';
import { CompanionSessionsService, type SessionBookings } from './companion-sessions.service';
import { companionRoutes } from './companion.routes';

type Deps = {
  db: Db;
  accounts: PatientAccountsService;
  documents: DocumentsService;
  users: UsersService;
  /** The booking module's manage logic, keyed by session (wireBooking's `manage`). */
  bookings: SessionBookings;
  meetLink: (s: { id: string }) => string;
  clock?: () => Date;
};

/** The patient's own side of Diván (issue 15): their sessions and shared documents, under `/api/v1/patient/files/:id`. */
export function wireCompanion(d: Deps) {
  const sessions = new CompanionSessionsService({
    accounts: d.accounts,
    own: new PatientOwnSessions(d.db),
    bookings: d.bookings,
    users: d.users,
    meetLink: d.meetLink,
    clock: d.clock,
  });
  const register = async (app: FastifyInstance) => {
    await app.register(companionRoutes, { sessions, accounts: d.accounts, documents: d.documents });
  };
  return { sessions, register };
}
