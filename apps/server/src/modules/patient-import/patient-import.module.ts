import { defineModule } from '../../platform/modules/define-module';
import { patientImportRoutes } from './patient-import.routes';
import { PatientImportService } from './patient-import.service';

/** Importing patients from a spreadsheet: upload, map the columns, commit in the background. */
export const patientImportModule = defineModule({
  name: 'patient-import',
  needs: ['patients', 'workspaces'],
  build: ({ patients, workspaces }, p) => {
    const imports = new PatientImportService(p.db, patients, workspaces, p.cipher, p.jobs);
    return {
      provides: {},
      routes: (app) => app.register(patientImportRoutes, { imports }),
      jobs: [imports.queue],
      sweeps: { 'patient-imports.expired': () => imports.sweep() },
    };
  },
});
