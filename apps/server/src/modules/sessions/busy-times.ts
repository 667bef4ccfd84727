import type { Db } from '../../platform/db/database';
import { sessionsRepository } from './sessions.repository';

/** A therapist's taken time, as public booking's free slots read it: every session not canceled. */
export class BusyTimes {
  constructor(private readonly db: Db) {}

  between = (workspaceId: string, therapistId: string, from: Date, to: Date) => sessionsRepository(this.db).busyOf(workspaceId, therapistId, from, to);
}
