import { defineModule } from '../../platform/modules/define-module';
import { historyRoutes } from './history.routes';
import { HistoryService } from './history.service';
import type { PatientDocuments } from './patient-documents';
import { dropStalePages, PATIENT_EVENTS, patientListCache } from './patient-list-cache';
import { patientsRoutes } from './patients.routes';
import { PatientsService } from './patients.service';
import { PatientStats } from './patient-stats';

declare module '../../platform/modules/define-module' {
  interface Provided {
    /** Patients' files, their access checks and treatment; every change a `patient.*` event. */
    patients: PatientsService;
    /** The clinical history: entries, drafts, session notes. */
    history: HistoryService;
    /** A port the patients module declares and the documents module fills (patient-documents.ts). */
    patientDocuments: PatientDocuments;
    /** The statistics' counts of patients and treatments (analytics). */
    patientStats: PatientStats;
  }
}

/** The broker topic of "a workspace's patients changed" (the list pages cached by PatientsService). */
const PATIENTS_CHANGED = 'patients-changed';

/** Patients and their clinical history. Needs the documents module's part of a file later (patient-documents.ts). */
export const patientsModule = defineModule({
  name: 'patients',
  needs: ['users', 'workspaces', 'audit'],
  later: ['patientDocuments'],
  build: async ({ users, workspaces, audit, patientDocuments }, p) => {
    const listCache = patientListCache(p.config.patientListCache).shareThrough(p.realtime, PATIENTS_CHANGED);
    const patients = new PatientsService(p.db, users, workspaces, p.events, p.cipher, listCache, patientDocuments);
    // Once per database: medication written in clear by earlier versions is encrypted, then its column dropped.
    await patients.encryptClearMedication();
    const history = new HistoryService(p.db, patients, users, p.cipher, audit);
    return {
      provides: { patients, history, patientStats: new PatientStats(p.database.reads) },
      routes: (app) => app.register(patientsRoutes, { patients }).register(historyRoutes, { history }),
      on: dropStalePages(listCache),
      sweeps: {
        'patients.retention-erasure': () => patients.eraseExpiredBlocked(),
        'history.stale-drafts': () => history.sweepDrafts(),
      },
      sockets: PATIENT_EVENTS,
    };
  },
});
