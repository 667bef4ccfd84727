import { boolean, date, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/** Therapist accounts (realm `therapists`) and their profile (spec §3). */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name'),
    phone: text('phone'),
    biography: text('biography'),
    birthdate: date('birthdate', { mode: 'string' }),
    registrationNumber: text('registration_number'),
    pictureFileId: uuid('picture_file_id'),
    logoFileId: uuid('logo_file_id'),
    /** argon2id; null for accounts created by a social provider. */
    passwordHash: text('password_hash'),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /**
     * Diván's own staff (the training library's upload tool): granted and taken back only by the operator's
     * `npm run admin -- staff <email> on|off`, never by a workspace role.
     */
    staff: boolean('staff').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email), index('users_created_at_idx').on(t.createdAt)],
);
export type UserRow = typeof users.$inferSelect;
