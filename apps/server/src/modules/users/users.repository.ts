import { eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import { reusableQuery } from '../../platform/db/reusable-query';
import { users, type UserRow } from './users.tables';

export type NewUser = {
  email: string;
  firstName: string;
  passwordHash: string | null;
  /** A social sign-up: the provider's name and its verified email. */
  lastName?: string | null;
  emailVerifiedAt?: Date | null;
};
export type ProfileChanges = Partial<
  Pick<UserRow, 'firstName' | 'lastName' | 'phone' | 'biography' | 'birthdate' | 'registrationNumber' | 'pictureFileId' | 'logoFileId'>
>;

/** A user as other modules read them: every column but the password's hash, which stays in users and auth. */
export type PublicUser = Omit<UserRow, 'passwordHash'>;
const { passwordHash: _secret, ...publicColumns } = getTableColumns(users);

type UserName = { id: string; firstName: string; lastName: string | null };
/** One user's name: read to present nearly every record a member made (built once, see reusableQuery). */
const nameOf = reusableQuery<{ id: string }, UserName[]>('user_name', (db) =>
  db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, sql.placeholder('id'))),
);

export function usersRepository(db: DbOrTx) {
  return {
    async findById(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id));
      return row;
    },
    async findManyByIds(ids: string[]): Promise<PublicUser[]> {
      if (ids.length === 0) return [];
      return db.select(publicColumns).from(users).where(inArray(users.id, ids));
    },
    /** Only their names (a list or a document names people: no need for the whole row). */
    async namesByIds(ids: string[]): Promise<UserName[]> {
      if (ids.length === 0) return [];
      if (ids.length === 1) return nameOf(db, 'one', { id: ids[0]! });
      return db.select({ id: users.id, firstName: users.firstName, lastName: users.lastName }).from(users).where(inArray(users.id, ids));
    },
    /** Row lock: serialises challenge creation per user (the 60 s cooldown holds under races). */
    async lockById(id: string): Promise<void> {
      await db.select({ id: users.id }).from(users).where(eq(users.id, id)).for('update');
    },
    async setStaff(email: string, staff: boolean): Promise<UserRow | undefined> {
      const [row] = await db.update(users).set({ staff, updatedAt: new Date() }).where(eq(users.email, email)).returning();
      return row;
    },
    async findByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.email, email));
      return row;
    },
    /** Undefined when the email is taken (unique index), so two racing sign-ups cannot both win. */
    async insert(user: NewUser): Promise<UserRow | undefined> {
      const [row] = await db.insert(users).values(user).onConflictDoNothing({ target: users.email }).returning();
      return row;
    },
    async update(id: string, changes: ProfileChanges & { passwordHash?: string | null; emailVerifiedAt?: Date }) {
      const [row] = await db
        .update(users)
        .set({ ...changes, updatedAt: new Date() })
        .where(eq(users.id, id))
        .returning();
      return row;
    },
  };
}
