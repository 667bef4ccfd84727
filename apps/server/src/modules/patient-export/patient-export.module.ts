import { defineModule } from '../../platform/modules/define-module';
import { patientExportRoutes } from './patient-export.routes';
import { PatientExportService } from './patient-export.service';

/** A patient's whole file as one download (the right of access). */
export const patientExportModule = defineModule({
  name: 'patient-export',
  needs: ['patients', 'history', 'documents', 'workspaces', 'secondFactor', 'measures'],
  build: ({ patients, history, documents, workspaces, secondFactor, measures }) => {
    const exporter = new PatientExportService(patients, history, documents, workspaces, measures);
    return {
      provides: {},
      routes: (app) => app.register(patientExportRoutes, { exporter, stepUp: secondFactor.requireStepUp.bind(secondFactor) }),
    };
  },
});
