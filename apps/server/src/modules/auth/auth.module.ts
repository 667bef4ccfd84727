import { defineModule } from '../../platform/modules/define-module';
import { authRoutes } from './auth.routes';
import { AuthService } from './auth.service';
import { SocialProviders } from './social/social-providers';
import { SocialSignIn } from './social/social-sign-in.service';
import { Identities } from './social/identities.service';
import { CreatePassword } from './social/create-password';
import { socialRoutes } from './social/social.routes';
import { SecondFactorService } from './second-factor/second-factor.service';
import { secondFactorRoutes } from './second-factor/second-factor.routes';
import { PasskeysService } from './passkeys/passkeys.service';
import { passkeysRoutes } from './passkeys/passkeys.routes';

declare module '../../platform/modules/define-module' {
  interface Provided {
    /** Sign-up, sign-in, codes and device sessions, for the therapists' realm and (patient-accounts) the patients'. */
    auth: AuthService;
    /** The authenticator app, recovery codes, the workspace policy and step-up (issue 32): `requireStepUp` for sensitive actions. */
    secondFactor: SecondFactorService;
    /** Passkeys (issue 32): sign-in alone, the second step and step-up. */
    passkeys: PasskeysService;
  }
}

export const authModule = defineModule({
  name: 'auth',
  needs: ['users', 'workspaces', 'members', 'audit'],
  // The billing module (later in the list) keeps the invitation codes a sign-up may bring.
  later: ['referrals'],
  build: async ({ users, workspaces, members, audit, referrals }, p) => {
    const onUserCreated: ConstructorParameters<typeof AuthService>[0]['onUserCreated'] = async (tx, user, { referralCode }) => {
      const workspaceId = await workspaces.createPersonal(tx, user);
      // A colleague's code: the friend's free month, in the sign-up's transaction (a wrong code refuses it).
      if (referralCode) await referrals().joinAtSignUp(tx, user, workspaceId, referralCode);
    };
    const secondFactor = new SecondFactorService({ db: p.db, cipher: p.cipher, tokens: p.tokens, users, workspaces, members, audit });
    const auth = new AuthService({
      secondFactor,
      db: p.db,
      users,
      tokens: p.tokens,
      mailer: p.mailer,
      realtime: p.realtime,
      revoked: p.revoked,
      emailLimiter: p.emailLimiter,
      publicUrl: p.config.publicUrl,
      onUserCreated,
    });
    const passkeys = new PasskeysService({
      db: p.db,
      tokens: p.tokens,
      users,
      workspaces,
      audit,
      secondFactor,
      sessions: auth.sessions,
      publicUrl: p.config.publicUrl,
    });
    // Sign in with Google or Apple (issue 30): the same device sessions, login codes and sign-up hook.
    const socialSignIn = new SocialSignIn({
      db: p.db,
      users,
      tokens: p.tokens,
      mailer: p.mailer,
      emailLimiter: p.emailLimiter,
      providers: new SocialProviders(p.config.social, p.config.publicUrl, p.log),
      sessions: auth.sessions,
      codes: auth.codes,
      onUserCreated,
      checkReferralCode: (code) => referrals().assertCodeExists(code),
      hasSecondFactor: (userId) => secondFactor.hasSecondFactor(userId),
      secondFactorChallenge: (userId) => auth.secondFactorChallenge(userId),
    });
    const identities = new Identities({ db: p.db, users, signIn: socialSignIn });
    const createPassword = new CreatePassword({ db: p.db, users, mailer: p.mailer, emailLimiter: p.emailLimiter, codes: auth.codes });
    // After the platform listens to the broker: a revocation is either in the database read here or heard later.
    await auth.loadRevokedSessions();
    return {
      provides: { auth, secondFactor, passkeys },
      routes: async (app) => {
        const perIpPerMinute = p.config.rateLimit.perIpPerMinute;
        await app.register(authRoutes, { auth, perIpPerMinute });
        await app.register(secondFactorRoutes, { auth, secondFactor, perIpPerMinute });
        await app.register(passkeysRoutes, { auth, passkeys, perIpPerMinute });
        await app.register(socialRoutes, {
          signIn: socialSignIn,
          identities,
          createPassword,
          publicUrl: p.config.publicUrl,
          perIpPerMinute,
        });
      },
      sweeps: {
        'auth.expired': auth.sweepExpired,
        'auth.social_expired': socialSignIn.sweepExpired,
        'auth.webauthn_expired': passkeys.sweepExpired,
      },
    };
  },
});
