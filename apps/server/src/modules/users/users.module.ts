import { defineModule } from '../../platform/modules/define-module';
import { usersRoutes } from './users.routes';
import { UsersService } from './users.service';

declare module '../../platform/modules/define-module' {
  interface Provided {
    /** Accounts and profiles (`GET /me`), their pictures, and `profile-updated` on the user's sockets. */
    users: UsersService;
  }
}

/** Users: the first floor, on the platform alone. */
export const usersModule = defineModule({
  name: 'users',
  needs: [],
  build: (_d, p) => {
    const users = new UsersService(p.db, p.publicImages, p.realtime, p.events);
    return { provides: { users }, routes: (app) => app.register(usersRoutes, { users }) };
  },
});
