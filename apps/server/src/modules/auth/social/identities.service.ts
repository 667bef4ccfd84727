import type { IdentitiesResponse, IdentityResponse, SocialProvider } from '@divan/core';
import type { Db } from '../../../platform/db/database';
import { AppError } from '../../../platform/errors';
import type { UsersService } from '../../users/users.service';
import { isUuid } from '../code-challenges';
import type { SocialSignIn } from './social-sign-in.service';
import { socialRepository, type IdentityRow } from './social.repository';

const present = (row: IdentityRow): IdentityResponse => ({
  id: row.id,
  provider: row.provider,
  email: row.email,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

/**
 * Ajustes › Seguridad: the providers linked to the signed-in account. Linking another goes through the provider like a
 * sign-in (its state bound to this user); unlinking never removes the last way in (no password and one identity).
 */
export class Identities {
  constructor(private readonly d: { db: Db; users: UsersService; signIn: SocialSignIn }) {}

  async list(userId: string): Promise<IdentitiesResponse> {
    const user = await this.d.users.findById(userId);
    if (!user) throw new AppError('user_not_found');
    const rows = await socialRepository(this.d.db).listIdentities(userId);
    return { identities: rows.map(present), hasPassword: !!user.passwordHash, providers: this.d.signIn.providers() };
  }

  authorize = (userId: string, provider: SocialProvider) => this.d.signIn.start(provider, { purpose: 'link', userId });

  /** The same user linking the same identity again is a no-op; someone else's is `identity_already_linked`. */
  async link(userId: string, provider: SocialProvider, body: { code: string; state: string; user?: string }): Promise<IdentityResponse> {
    const { claims } = await this.d.signIn.answer(provider, body, { kind: 'link', userId });
    return this.d.db.transaction(async (tx) => {
      const repo = socialRepository(tx);
      const inserted = await repo.insertIdentity({ userId, provider, subject: claims.subject, email: claims.email });
      if (inserted) return present(inserted);
      const existing = await repo.findIdentity(provider, claims.subject);
      if (!existing || existing.userId !== userId) throw new AppError('identity_already_linked');
      return present(await repo.touchIdentity(existing.id, claims.email));
    });
  }

  /** Under the user's row lock: two unlinks at once cannot both pass the last-way-in check. */
  async unlink(userId: string, id: string): Promise<void> {
    if (!isUuid(id)) throw new AppError('identity_not_found');
    await this.d.db.transaction(async (tx) => {
      await this.d.users.lock(userId, tx);
      const user = await this.d.users.findById(userId, tx);
      if (!user) throw new AppError('user_not_found');
      const repo = socialRepository(tx);
      const mine = await repo.listIdentities(userId);
      if (!mine.some((i) => i.id === id)) throw new AppError('identity_not_found');
      if (!user.passwordHash && mine.length === 1) throw new AppError('identity_last_way_in');
      await repo.deleteIdentity(userId, id);
    });
  }
}
