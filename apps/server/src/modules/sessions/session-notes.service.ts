import { todayIn, toLocal } from '@divan/core';
import type { HistoryService } from '../patients/history.service';
import type { Caller } from '../../platform/auth/caller';
import type { SessionsService } from './sessions.service';

type NoteInput = { title: string; date?: string; body: string; private: boolean };

/**
 * "Escribir nota" from a session: a clinical history entry of the session's patient, dated the
 * session's day unless another is given, linked to the session. The history keeps its own rules
 * (permission to write the patient's history, encryption, drafts, privacy); this only checks the
 * caller may read the session and ties the two together.
 */
export class SessionNotesService {
  constructor(
    private readonly sessions: SessionsService,
    private readonly history: HistoryService,
  ) {}

  async write(c: Caller, sessionId: string, input: NoteInput, now = new Date()) {
    const s = await this.sessions.accessible(c, sessionId, 'read');
    const day = toLocal(s.startsAt, s.timeZone).day;
    return this.history.create(
      c,
      s.patientId,
      { ...input, date: input.date ?? (day <= todayIn(s.timeZone, now) ? day : todayIn(s.timeZone, now)) },
      { sessionId: s.id },
    );
  }
}
