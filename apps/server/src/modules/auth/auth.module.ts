import { defineModule } from '../../platform/modules/define-module';
import { authRoutes } from './auth.routes';
import { AuthService } from './auth.service';

declare module '../../platform/modules/define-module' {
  interface Provided {
    /** Sign-up, sign-in, codes and device sessions, for the therapists' realm and (patient-accounts) the patients'. */
    auth: AuthService;
  }
}

export const authModule = defineModule({
  name: 'auth',
  needs: ['users', 'workspaces'],
  // The billing module (later in the list) keeps the invitation codes a sign-up may bring.
  later: ['referrals'],
  build: async ({ users, workspaces, referrals }, p) => {
    const auth = new AuthService({
      db: p.db,
      users,
      tokens: p.tokens,
      mailer: p.mailer,
      realtime: p.realtime,
      revoked: p.revoked,
      emailLimiter: p.emailLimiter,
      publicUrl: p.config.publicUrl,
      onUserCreated: async (tx, user, { referralCode }) => {
        const workspaceId = await workspaces.createPersonal(tx, user);
        // A colleague's code: the friend's free month, in the sign-up's transaction (a wrong code refuses it).
        if (referralCode) await referrals().joinAtSignUp(tx, user, workspaceId, referralCode);
      },
    });
    // After the platform listens to the broker: a revocation is either in the database read here or heard later.
    await auth.loadRevokedSessions();
    return {
      provides: { auth },
      routes: (app) => app.register(authRoutes, { auth, perIpPerMinute: p.config.rateLimit.perIpPerMinute }),
      sweeps: { 'auth.expired': auth.sweepExpired },
    };
  },
});
