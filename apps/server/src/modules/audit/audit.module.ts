import { defineModule } from '../../platform/modules/define-module';
import { auditRoutes } from './audit.routes';
import { AuditService } from './audit.service';

declare module '../../platform/modules/define-module' {
  interface Provided {
    /** The workspace's audit log: other modules write a row in their own transaction (`audit.record(tx, …)`). */
    audit: AuditService;
  }
}

export const auditModule = defineModule({
  name: 'audit',
  needs: ['users'],
  build: ({ users }, p) => {
    const audit = new AuditService(p.db, users);
    return { provides: { audit }, routes: (app) => app.register(auditRoutes, { audit }) };
  },
});
