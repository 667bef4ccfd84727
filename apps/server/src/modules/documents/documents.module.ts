import { defineModule } from '../../platform/modules/define-module';
import { StorageCleanup } from '../../platform/storage/storage-cleanup';
import { documentsRoutes } from './documents.routes';
import { DocumentsService } from './documents.service';

declare module '../../platform/modules/define-module' {
  interface Provided {
    /** The patients' documents: uploads, sharing with the patient, generated ones (sealed consents), chat attachments. */
    documents: DocumentsService;
  }
}

/** Documents of a patient's file. Fills the patients module's `patientDocuments` port: the count and the erasure. */
export const documentsModule = defineModule({
  name: 'documents',
  needs: ['patients', 'users', 'audit'],
  build: ({ patients, users, audit }, p) => {
    const cleanup = new StorageCleanup(p.jobs, p.storage);
    const documents = new DocumentsService(p.db, patients, users, p.cipher, p.storage, cleanup, audit);
    return {
      provides: { documents, patientDocuments: { count: documents.count, eraseWithPatient: documents.eraseWithPatient } },
      routes: (app) => app.register(documentsRoutes, { documents }),
    };
  },
});
