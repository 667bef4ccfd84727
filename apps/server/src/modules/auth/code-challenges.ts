import { LOGIN_CODE_MAX_ATTEMPTS, LOGIN_CODE_TTL_MS } from '@divan/core';
import type { Db, DbOrTx } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import { sixDigitCode, type TokenService } from '../../platform/auth/tokens';
import { authRepository, type ChallengeRow, type SessionSubject } from './auth.repository';

/** The code challenge of each realm's two-step sign-in. */
const KIND = { therapists: 'login', patients: 'patient_login' } as const;

/**
 * Mailed 6-digit sign-in codes, for every realm: a challenge id answered by its code within
 * LOGIN_CODE_TTL_MS and LOGIN_CODE_MAX_ATTEMPTS, once. The code's hash is bound to its challenge id,
 * so a code only ever answers its own challenge, and a challenge of one realm never signs in to another.
 */
export class CodeChallenges {
  constructor(private readonly d: { db: Db; tokens: TokenService }) {}

  /** A new challenge for `subject` (in the caller's transaction, with the mail that carries its code). */
  async issue(tx: DbOrTx, subject: SessionSubject): Promise<{ id: string; code: string; expiresAt: Date }> {
    const code = sixDigitCode();
    const id = crypto.randomUUID();
    const row = await authRepository(tx).insertChallenge({
      id,
      kind: KIND[subject.realm],
      ...(subject.realm === 'patients' ? { patientAccountId: subject.id } : { userId: subject.id }),
      secretHash: this.codeHash(id, code),
      expiresAt: new Date(Date.now() + LOGIN_CODE_TTL_MS),
    });
    return { id, code, expiresAt: row.expiresAt };
  }

  /**
   * Counts an attempt and checks the code; the challenge is still to be consumed (`consume`, in the
   * transaction that signs in). Its errors: unknown or used, expired, too many attempts, wrong code.
   */
  async check(realm: SessionSubject['realm'], challengeId: string, code: string): Promise<ChallengeRow & { subjectId: string }> {
    const repo = authRepository(this.d.db);
    const found = isUuid(challengeId) ? await repo.findChallengeById(challengeId) : undefined;
    if (!found || found.kind !== KIND[realm] || found.consumedAt) throw new AppError('challenge_not_found');
    const subjectId = realm === 'patients' ? found.patientAccountId : found.userId;
    if (!subjectId) throw new AppError('challenge_not_found');
    if (found.expiresAt.getTime() <= Date.now()) throw new AppError('challenge_expired');
    const counted = await repo.countAttempt(found.id, LOGIN_CODE_MAX_ATTEMPTS);
    if (!counted) {
      const again = await repo.findChallengeById(found.id);
      throw new AppError(again?.consumedAt ? 'challenge_not_found' : 'max_attempts');
    }
    if (this.codeHash(found.id, code) !== counted.secretHash)
      throw new AppError('invalid_code', [{ path: 'code', message: 'El código no es correcto' }]);
    return { ...counted, subjectId };
  }

  /** Consumes once: of two racing sign-ins with the right code only one gets through. */
  async consume(tx: DbOrTx, challengeId: string) {
    if (!(await authRepository(tx).consume(challengeId))) throw new AppError('challenge_not_found');
  }

  private codeHash(challengeId: string, code: string) {
    return this.d.tokens.hashSecret(`login:${challengeId}:${code}`);
  }
}

export const isUuid = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
