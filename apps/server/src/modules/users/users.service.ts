import type { DomainEvents, Profile, UpdateProfileBody } from '@divan/core';
import { IMAGE_MAX_BYTES, profileResponse } from '@divan/core';
import type { Db, DbOrTx } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import { compiledSerializer } from '../../platform/http/compiled-serializer';
import type { EventBus } from '../../platform/events/event-bus';
import type { PublicImageStore } from '../../platform/storage/public-image-store';
import { uploadedImage } from '../../platform/storage/image';
import type { Realtime } from '../../platform/realtime/realtime';
import { usersRepository, type NewUser } from './users.repository';
import type { UserRow } from './users.tables';

export type { UserRow };

/** `GET /me`'s body, written by its contract compiled once (no Zod parse per request). */
const serializeProfile = compiledSerializer(profileResponse);

const fileUrl = (id: string | null) => (id ? `/api/v1/files/${id}` : null);

export function toProfile(u: UserRow): Profile {
  return {
    id: u.id,
    firstName: u.firstName,
    lastName: u.lastName,
    email: u.email,
    phone: u.phone,
    biography: u.biography,
    birthdate: u.birthdate,
    registrationNumber: u.registrationNumber,
    pictureUrl: fileUrl(u.pictureFileId),
    logoUrl: fileUrl(u.logoFileId),
  };
}

export type ImageKind = 'picture' | 'logo';
type ProfileField = DomainEvents['user.profile_updated']['fields'][number];

/** Therapist accounts and profiles. Other modules reach users only through this service. */
export class UsersService {
  /**
   * `GET /me` is the hottest route: profiles are cached by user id. Every change publishes
   * `profile-updated` through the broker, which drops the entry in every server process.
   */
  private readonly profiles = new Map<string, { profile: Profile; json: string }>();
  private static readonly CACHE_MAX = 10_000;

  constructor(
    private readonly db: Db,
    private readonly publicImages: PublicImageStore,
    private readonly realtime: Realtime,
    private readonly events: EventBus,
  ) {
    realtime.onUserEvent((userId, event) => {
      if (event === 'profile-updated') this.profiles.delete(userId);
    });
  }

  findById = (id: string, tx: DbOrTx = this.db) => usersRepository(tx).findById(id);
  findManyByIds = (ids: string[]) => usersRepository(this.db).findManyByIds([...new Set(ids)]);
  namesByIds = (ids: string[]) => usersRepository(this.db).namesByIds([...new Set(ids)]);
  /** Diván's own staff (the training library's upload tool): never a workspace role. */
  isStaff = async (userId: string) => (await usersRepository(this.db).findById(userId))?.staff === true;
  /** The operator's `npm run admin -- staff <email> on|off`: the account, or undefined when no account has that email. */
  setStaff = (email: string, staff: boolean) => usersRepository(this.db).setStaff(email.trim().toLowerCase(), staff);
  lock = (id: string, tx: DbOrTx) => usersRepository(tx).lockById(id);
  findByEmail = (email: string, tx: DbOrTx = this.db) => usersRepository(tx).findByEmail(email);
  create = (user: NewUser, tx: DbOrTx = this.db) => usersRepository(tx).insert(user);
  markVerified = (id: string, tx: DbOrTx = this.db) => usersRepository(tx).update(id, { emailVerifiedAt: new Date() });
  setPasswordHash = (id: string, passwordHash: string, tx: DbOrTx = this.db) => usersRepository(tx).update(id, { passwordHash });
  /**
   * An account never confirmed, whose email a provider's sign-in has just proved (the mailed code): confirmed, and without
   * the password its creator set (whoever typed it never proved the address).
   */
  claimUnverified = (id: string, tx: DbOrTx) => usersRepository(tx).update(id, { passwordHash: null, emailVerifiedAt: new Date() });

  getProfile = async (userId: string): Promise<Profile> => (await this.cachedProfile(userId)).profile;

  /** The profile as `GET /me` answers it: its JSON, written once per change. */
  profileJson = async (userId: string): Promise<string> => (await this.cachedProfile(userId)).json;

  private async cachedProfile(userId: string) {
    const cached = this.profiles.get(userId);
    if (cached) return cached;
    const user = await this.findById(userId);
    if (!user) throw new AppError('user_not_found');
    const profile = toProfile(user);
    const entry = { profile, json: serializeProfile(profile) };
    if (this.profiles.size >= UsersService.CACHE_MAX) this.profiles.delete(this.profiles.keys().next().value!);
    this.profiles.set(userId, entry);
    return entry;
  }

  async updateProfile(userId: string, changes: UpdateProfileBody): Promise<Profile> {
    const row = await usersRepository(this.db).update(userId, changes as Record<string, string | null>);
    if (!row) throw new AppError('user_not_found');
    const fields = (Object.keys(changes) as (keyof UpdateProfileBody)[]).filter((k) => changes[k] !== undefined);
    return this.changed(row, fields);
  }

  /** Pictures and logos: type read from the bytes, size limited, logos square. */
  async setImage(userId: string, kind: ImageKind, data: Buffer): Promise<Profile> {
    if (data.length > IMAGE_MAX_BYTES) throw new AppError('file_too_large');
    const image = uploadedImage(data, { square: kind === 'logo' });
    const user = await this.findById(userId);
    if (!user) throw new AppError('user_not_found');
    const stored = await this.publicImages.save({ ownerUserId: userId, purpose: kind, contentType: image.contentType, data });
    const column = kind === 'picture' ? 'pictureFileId' : 'logoFileId';
    const row = await usersRepository(this.db).update(userId, { [column]: stored.id });
    const previous = user[column];
    if (previous) await this.publicImages.delete(previous);
    return this.changed(row!, [kind]);
  }

  async removeImage(userId: string, kind: ImageKind): Promise<Profile> {
    const user = await this.findById(userId);
    if (!user) throw new AppError('user_not_found');
    const column = kind === 'picture' ? 'pictureFileId' : 'logoFileId';
    const row = await usersRepository(this.db).update(userId, { [column]: null });
    if (user[column]) await this.publicImages.delete(user[column]);
    return this.changed(row!, [kind]);
  }

  /**
   * Other tabs and devices of the therapist refresh their profile (the frame carries it); other modules
   * hear `user.profile_updated`, which names the fields only (e.g. the patient list shows the name).
   */
  private async changed(row: UserRow, fields: ProfileField[]): Promise<Profile> {
    const profile = toProfile(row);
    this.profiles.delete(row.id);
    await this.realtime.toUser(row.id, 'profile-updated', profile);
    await this.events.emit('user.profile_updated', { userId: row.id, fields });
    return profile;
  }
}
