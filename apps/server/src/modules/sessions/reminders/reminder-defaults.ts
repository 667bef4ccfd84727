import { DEFAULT_REMINDER_OFFSETS } from '@divan/core';
import type { DbOrTx } from '../../../platform/db/database';
import { remindersRepository } from './reminders.repository';

/**
 * The reminders of a session created without any: the therapist's defaults in the workspace (settings
 * `notifications`; one a day before if never chosen), the first `max` the plan allows.
 */
export async function defaultReminders(db: DbOrTx, workspaceId: string, therapistId: string, max: number): Promise<number[]> {
  const saved = await remindersRepository(db).settings(workspaceId, therapistId);
  return [...(saved?.reminderOffsets ?? DEFAULT_REMINDER_OFFSETS)].slice(0, Math.max(0, max));
}
