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
  build: async ({ users, workspaces }, p) => {
    const auth = new AuthService({
      db: p.db,
      users,
      tokens: p.tokens,
      mailer: p.mailer,
      realtime: p.realtime,
      revoked: p.revoked,
      emailLimiter: p.emailLimiter,
      publicUrl: p.config.publicUrl,
      onUserCreated: (tx, user) => workspaces.createPersonal(tx, user),
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
