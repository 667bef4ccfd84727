import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { ChatCursor, ChatSenderKind, ChatTab } from '@divan/core';
import type { DbOrTx } from '../../platform/db/database';
import { chatConversations, chatMessages, chatOfficeHours, type ChatMessageRow } from './chat.tables';

/** The two sides of a conversation: the workspace's members (one shared cursor) and the patient. */
export type ChatSide = 'members' | 'patient';
/** Who the side reads: the other kind of sender. */
export const peerOf = (side: ChatSide): ChatSenderKind => (side === 'members' ? 'patient' : 'member');
export const sideOf = (kind: ChatSenderKind): ChatSide => (kind === 'member' ? 'members' : 'patient');

const NIL = '00000000-0000-0000-0000-000000000000';
const c = chatConversations;
const m = chatMessages;
const readAt = (side: ChatSide) => (side === 'members' ? c.membersReadAt : c.patientReadAt);
const readId = (side: ChatSide) => (side === 'members' ? c.membersReadId : c.patientReadId);
/** The side's read cursor as a row value; "never read" is before everything. */
const cursorOf = (side: ChatSide) => sql`(coalesce(${readAt(side)}, '-infinity'::timestamptz), coalesce(${readId(side)}, ${NIL}::uuid))`;
/** Messages of the peer after the side's cursor (inside a query joining conversations). */
const unreadBy = (side: ChatSide) =>
  and(eq(m.patientFileId, c.patientFileId), eq(m.senderKind, peerOf(side)), sql`(${m.createdAt}, ${m.id}) > ${cursorOf(side)}`);
const at = (x: ChatCursor) => sql`(${x.at.toISOString()}::timestamptz, ${x.id}::uuid)`;

export function chatRepository(db: DbOrTx) {
  return {
    async insert(row: ChatMessageRow) {
      await db.insert(m).values(row);
      await db
        .insert(c)
        .values({ patientFileId: row.patientFileId, workspaceId: row.workspaceId, lastMessageAt: row.createdAt, lastMessageId: row.id })
        .onConflictDoUpdate({
          target: c.patientFileId,
          set: { lastMessageAt: row.createdAt, lastMessageId: row.id },
          setWhere: sql`(${c.lastMessageAt}, ${c.lastMessageId}) < ${at({ at: row.createdAt, id: row.id })}`,
        });
    },

    async find(patientFileId: string, id: string): Promise<ChatMessageRow | undefined> {
      const [row] = await db
        .select()
        .from(m)
        .where(and(eq(m.patientFileId, patientFileId), eq(m.id, id)));
      return row;
    },

    /** `before` (or none): newest first; `after`: oldest first. One more than `limit` tells whether a next page exists. */
    page(patientFileId: string, q: { before?: ChatCursor; after?: ChatCursor; limit: number }) {
      const key = sql`(${m.createdAt}, ${m.id})`;
      const where: SQL[] = [eq(m.patientFileId, patientFileId)];
      if (q.before) where.push(sql`${key} < ${at(q.before)}`);
      if (q.after) where.push(sql`${key} > ${at(q.after)}`);
      const order = q.after ? [m.createdAt, m.id] : [desc(m.createdAt), desc(m.id)];
      return db
        .select()
        .from(m)
        .where(and(...where))
        .orderBy(...order)
        .limit(q.limit + 1);
    },

    /** The side's read cursor id (null: never read), the key of its current unread stretch. */
    async readId(patientFileId: string, side: ChatSide): Promise<string | null> {
      const [row] = await db
        .select({ id: readId(side) })
        .from(c)
        .where(eq(c.patientFileId, patientFileId));
      return row?.id ?? null;
    },

    byIds(ids: string[]) {
      return ids.length ? db.select().from(m).where(inArray(m.id, ids)) : Promise.resolve([]);
    },

    /** Moves the side's cursor forward to `to` (never back); whether it moved. */
    async advanceRead(patientFileId: string, side: ChatSide, to: ChatCursor): Promise<boolean> {
      const set = side === 'members' ? { membersReadAt: to.at, membersReadId: to.id } : { patientReadAt: to.at, patientReadId: to.id };
      const rows = await db
        .update(c)
        .set(set)
        .where(and(eq(c.patientFileId, patientFileId), sql`${cursorOf(side)} < ${at(to)}`))
        .returning({ id: c.patientFileId });
      return rows.length > 0;
    },

    /** Unread messages per file for a side, among `fileIds` (a list or a subquery); files with none left out. */
    async unreadCounts(side: ChatSide, fileIds: string[] | SQL): Promise<Map<string, number>> {
      if (Array.isArray(fileIds) && !fileIds.length) return new Map();
      const rows = await db
        .select({ id: c.patientFileId, n: sql<number>`count(*)::int` })
        .from(c)
        .innerJoin(m, unreadBy(side))
        .where(Array.isArray(fileIds) ? inArray(c.patientFileId, fileIds) : sql`${c.patientFileId} in (${fileIds})`)
        .groupBy(c.patientFileId);
      return new Map(rows.map((r) => [r.id, r.n]));
    },

    /** A page of the members' conversations among `fileIds` (the files they read, filtered), latest first. */
    async list(workspaceId: string, fileIds: SQL, tab: ChatTab, page: number, pageSize: number) {
      const hasUnread = sql`exists (select 1 from ${m} where ${unreadBy('members')})`;
      const where = and(
        eq(c.workspaceId, workspaceId),
        sql`${c.patientFileId} in (${fileIds})`,
        tab === 'unread' ? hasUnread : tab === 'read' ? sql`not ${hasUnread}` : undefined,
      );
      const [items, [total]] = await Promise.all([
        db
          .select()
          .from(c)
          .where(where)
          .orderBy(desc(c.lastMessageAt), desc(c.patientFileId))
          .limit(pageSize)
          .offset((page - 1) * pageSize),
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(c)
          .where(where),
      ]);
      return { items, total: total?.n ?? 0 };
    },

    /**
     * Conversations where a side has left a peer's message unread since before `olderThan`, with the
     * side's read cursor: the unread stretch's key (one mail per stretch, not per message).
     */
    unreadSince(side: ChatSide, olderThan: Date, limit: number) {
      return db
        .select({ patientFileId: c.patientFileId, workspaceId: c.workspaceId, readId: readId(side) })
        .from(c)
        .innerJoin(m, unreadBy(side))
        .groupBy(c.patientFileId, c.workspaceId, readId(side))
        .having(sql`min(${m.createdAt}) < ${olderThan.toISOString()}::timestamptz`)
        .limit(limit);
    },
  };
}

/** A therapist's chat office hours (their own setting, across workspaces). */
export function chatOfficeHoursRepository(db: DbOrTx) {
  return {
    async get(userId: string) {
      const [row] = await db.select().from(chatOfficeHours).where(eq(chatOfficeHours.userId, userId));
      return row;
    },
    async put(userId: string, values: Omit<typeof chatOfficeHours.$inferInsert, 'userId'>) {
      await db
        .insert(chatOfficeHours)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: chatOfficeHours.userId, set: values });
    },
  };
}
