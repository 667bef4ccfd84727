import { DocumentSeal } from '../../platform/documents/seal';
import { defineModule } from '../../platform/modules/define-module';
import { consentEnvelopesRoutes } from './consent-envelopes.routes';
import { ConsentEnvelopesService } from './consent-envelopes.service';
import { ConsentSigningService } from './consent-signing.service';
import { consentTemplatesRoutes } from './consent-templates.routes';
import { ConsentTemplatesService } from './consent-templates.service';

declare module '../../platform/modules/define-module' {
  interface Provided {
    /** Consent templates; `currentVersion` and `frozen` are what sending and signing read. */
    consentTemplates: ConsentTemplatesService;
    /** Sent consents. */
    consentEnvelopes: ConsentEnvelopesService;
    /** The public signing, its reminders and the sealing of a signed envelope. */
    consentSigning: ConsentSigningService;
    /** The installation's PDF seal, opened on first use. */
    seal: () => DocumentSeal;
  }
}

/** Consents (issue 13): templates, sending, the public signing and its reminders, and the installation's PDF seal. */
export const consentsModule = defineModule({
  name: 'consents',
  needs: ['users', 'workspaces', 'patients', 'documents', 'audit'],
  build: (d, p) => {
    const { db, config } = p;
    const templates = new ConsentTemplatesService(db, d.users, d.audit);
    // Opened once, on first use: making the installation's certificate (an RSA key) would slow every start.
    let opened: DocumentSeal | undefined;
    const seal = () =>
      (opened ??= DocumentSeal.open({
        dataDir: config.dataDir,
        p12: config.seal?.p12,
        passphrase: config.seal?.passphrase,
        publicUrl: config.publicUrl,
      }));
    const signing = new ConsentSigningService({
      db,
      appSecret: config.appSecret,
      publicUrl: config.publicUrl,
      mailer: p.mailer,
      jobs: p.jobs,
      users: d.users,
      workspaces: d.workspaces,
      patients: d.patients,
      documents: d.documents,
      audit: d.audit,
      templates,
      storage: p.storage,
      cipher: p.cipher,
      seal,
      clock: p.clock,
      log: p.log,
    });
    const envelopes = new ConsentEnvelopesService({
      db,
      patients: d.patients,
      users: d.users,
      workspaces: d.workspaces,
      templates,
      audit: d.audit,
      signing,
      clock: p.clock,
    });
    return {
      provides: { consentTemplates: templates, consentEnvelopes: envelopes, consentSigning: signing, seal },
      routes: (app) =>
        app
          .register(consentTemplatesRoutes, { templates })
          .register(consentEnvelopesRoutes, { envelopes, signing, perIpPerMinute: config.rateLimit.perIpPerMinute }),
      jobs: [signing.queue],
      sweeps: { 'consents.reminders': () => signing.remindDue() },
    };
  },
});
