import { DEFAULT_REMINDER_OFFSETS, type NotificationSettings, type NotificationSettingsBody } from '@divan/core';
import type { Db } from '../../../platform/db/database';
import type { Caller } from '../../../platform/auth/caller';
import type { WorkspacesService } from '../../workspaces/workspaces.service';
import { checkReminders } from '../session-rules';
import { remindersRepository } from './reminders.repository';

/**
 * Settings `notifications`: each member's own, in the workspace they are in (its plan caps the
 * reminders). Nobody reads or writes another member's: the routes take no user id.
 */
export class NotificationSettingsService {
  constructor(
    private readonly db: Db,
    private readonly workspaces: WorkspacesService,
  ) {}

  async get(c: Caller): Promise<NotificationSettings> {
    const [row, features] = await Promise.all([
      remindersRepository(this.db).settings(c.member.workspaceId, c.userId),
      this.workspaces.featuresOf(c.member.workspaceId),
    ]);
    return {
      reminderOffsets: row?.reminderOffsets ?? [...DEFAULT_REMINDER_OFFSETS].slice(0, features.sessionReminders),
      notifyPatientCanceled: row?.notifyPatientCanceled ?? true,
      notifyPatientBooked: row?.notifyPatientBooked ?? true,
      maxReminders: features.sessionReminders,
      saved: !!row,
    };
  }

  /** Whether a member wants a mail when a patient books (or moves) and when a patient cancels on their own (public page, companion). */
  async noticesOf(workspaceId: string, userId: string): Promise<{ booked: boolean; canceled: boolean }> {
    const row = await remindersRepository(this.db).settings(workspaceId, userId);
    return { booked: row?.notifyPatientBooked ?? true, canceled: row?.notifyPatientCanceled ?? true };
  }

  async save(c: Caller, body: NotificationSettingsBody): Promise<NotificationSettings> {
    const features = await this.workspaces.featuresOf(c.member.workspaceId);
    checkReminders(body.reminderOffsets, features.sessionReminders);
    const reminderOffsets = [...body.reminderOffsets].sort((a, b) => b - a);
    const row = await remindersRepository(this.db).saveSettings({
      workspaceId: c.member.workspaceId,
      userId: c.userId,
      ...body,
      reminderOffsets,
    });
    return {
      reminderOffsets: row.reminderOffsets,
      notifyPatientCanceled: row.notifyPatientCanceled,
      notifyPatientBooked: row.notifyPatientBooked,
      maxReminders: features.sessionReminders,
      saved: true,
    };
  }
}
