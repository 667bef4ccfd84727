import { DEFAULT_CHAT_AUTO_REPLY, DEFAULT_TIME_ZONE, outsideOfficeHours, type ChatOfficeHours } from '@divan/core';
import type { Db } from '../../platform/db/database';
import { chatOfficeHoursRepository } from './chat.repository';

const DEFAULTS: ChatOfficeHours = { enabled: false, timeZone: DEFAULT_TIME_ZONE, slots: [], autoReply: DEFAULT_CHAT_AUTO_REPLY };

/** A therapist's office hours for the chat (their own setting, across workspaces) and the automatic reply. */
export class ChatOfficeHoursService {
  constructor(private readonly db: Db) {}

  async get(userId: string): Promise<ChatOfficeHours> {
    const row = await chatOfficeHoursRepository(this.db).get(userId);
    return row ? { enabled: row.enabled, timeZone: row.timeZone, slots: row.slots, autoReply: row.autoReply } : DEFAULTS;
  }

  async put(userId: string, h: ChatOfficeHours): Promise<ChatOfficeHours> {
    const values = { enabled: h.enabled, timeZone: h.timeZone, slots: h.slots, autoReply: h.autoReply, updatedAt: new Date() };
    await chatOfficeHoursRepository(this.db).put(userId, values);
    return this.get(userId);
  }

  /** The automatic reply when `at` is outside the therapist's office hours; null otherwise. */
  async replyAt(userId: string, at: Date): Promise<string | null> {
    const h = await this.get(userId);
    return outsideOfficeHours(h, at) ? h.autoReply : null;
  }
}
