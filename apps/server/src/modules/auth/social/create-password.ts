import argon2 from 'argon2';
import { CHALLENGE_COOLDOWN_MS, type CreatePasswordBody, type CreatePasswordCode } from '@divan/core';
import type { Db } from '../../../platform/db/database';
import { AppError } from '../../../platform/errors';
import type { RateLimiter } from '../../../platform/http/rate-limiter';
import { renderMail, type Mail } from '../../../platform/mail/layout';
import type { Mailer } from '../../../platform/mail/mailer';
import type { UsersService } from '../../users/users.service';
import { authRepository } from '../auth.repository';
import type { CodeChallenges } from '../code-challenges';

/** The same cost as every password of the realm (auth.service). */
const ARGON2 = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

function createPasswordMail(to: string, firstName: string, code: string): Mail {
  return renderMail({
    to,
    // No code in the subject: subjects are kept (and shown in notifications) after the body is dropped.
    subject: 'Tu código para crear una contraseña en Diván',
    greeting: `Hola, ${firstName}:`,
    blocks: [
      { kind: 'p', text: 'Para crear una contraseña y entrar también con tu email, escribe este código en Ajustes › Seguridad:' },
      { kind: 'code', code },
      { kind: 'p', text: 'Caduca en 10 minutos. Si no has sido tú, ignora este mensaje: tu cuenta sigue como estaba.' },
    ],
  });
}

type Deps = { db: Db; users: UsersService; mailer: Mailer; emailLimiter: RateLimiter; codes: CodeChallenges };

/**
 * «Crear contraseña» for an account made through Google or Apple (it has none): the signed-in person proves the
 * account's mailbox with the realm's mailed 6-digit code (CodeChallenges, as a sign-in or a provider link does), then
 * the password is set. An account that has one changes it with its current password instead (`password_already_set`).
 */
export class CreatePassword {
  constructor(private readonly d: Deps) {}

  async sendCode(userId: string): Promise<CreatePasswordCode> {
    const user = await this.d.users.findById(userId);
    if (!user) throw new AppError('user_not_found');
    if (user.passwordHash) throw new AppError('password_already_set');
    await this.d.emailLimiter.hit(user.email);
    return this.d.db.transaction(async (tx) => {
      await this.d.users.lock(user.id, tx);
      const last = await authRepository(tx).latestChallenge(user.id, 'login');
      if (last && Date.now() - last.createdAt.getTime() < CHALLENGE_COOLDOWN_MS) throw new AppError('recent_challenge');
      const issued = await this.d.codes.issue(tx, { realm: 'therapists', id: user.id });
      await this.d.mailer.send(createPasswordMail(user.email, user.firstName, issued.code), {
        tx,
        purpose: 'login',
        key: `login:${issued.id}`,
      });
      return { challenge: issued.id, expiresAt: issued.expiresAt.toISOString(), email: user.email };
    });
  }

  /** The code of this user's own challenge, once; the password set under the user's row lock (two at once: one wins). */
  async create(userId: string, body: CreatePasswordBody): Promise<void> {
    const found = await this.d.codes.check('therapists', body.challenge, body.code);
    if (found.subjectId !== userId) throw new AppError('challenge_not_found');
    const passwordHash = await argon2.hash(body.newPassword, ARGON2);
    await this.d.db.transaction(async (tx) => {
      await this.d.users.lock(userId, tx);
      const user = await this.d.users.findById(userId, tx);
      if (!user) throw new AppError('user_not_found');
      if (user.passwordHash) throw new AppError('password_already_set');
      await this.d.codes.consume(tx, found.id);
      await this.d.users.setPasswordHash(userId, passwordHash, tx);
    });
  }
}
