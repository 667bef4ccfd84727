import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../../platform/config';
import type { Cipher } from '../../platform/crypto/cipher';
import type { Db } from '../../platform/db/database';
import { DocumentSeal } from '../../platform/documents/seal';
import type { Jobs } from '../../platform/jobs/jobs';
import type { Mailer } from '../../platform/mail/mailer';
import type { Storage } from '../../platform/storage/storage';
import type { AuditService } from '../audit/audit.service';
import type { DocumentsService } from '../documents/documents.service';
import type { PatientsService } from '../patients/patients.service';
import type { UsersService } from '../users/users.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { consentEnvelopesRoutes } from './consent-envelopes.routes';
import { ConsentEnvelopesService } from './consent-envelopes.service';
import { ConsentSigningService } from './consent-signing.service';
import { consentTemplatesRoutes } from './consent-templates.routes';
import { ConsentTemplatesService } from './consent-templates.service';

type Deps = {
  db: Db;
  config: Config;
  log: FastifyBaseLogger;
  clock?: () => Date;
  mailer: Mailer;
  jobs: Jobs;
  users: UsersService;
  workspaces: WorkspacesService;
  patients: PatientsService;
  documents: DocumentsService;
  audit: AuditService;
  storage: Storage;
  cipher: Cipher;
};

/**
 * Consents (issue 13): templates, sending, the public signing and its reminders, and the
 * installation's PDF seal, built once and their routes registered by `register`.
 */
export function wireConsents(d: Deps) {
  const { db, config } = d;
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
    mailer: d.mailer,
    jobs: d.jobs,
    users: d.users,
    workspaces: d.workspaces,
    patients: d.patients,
    documents: d.documents,
    audit: d.audit,
    templates,
    storage: d.storage,
    cipher: d.cipher,
    seal,
    clock: d.clock,
    log: d.log,
  });
  const envelopes = new ConsentEnvelopesService({
    db,
    patients: d.patients,
    users: d.users,
    workspaces: d.workspaces,
    templates,
    audit: d.audit,
    signing,
    clock: d.clock,
  });
  d.jobs.sweep('consents.reminders', () => signing.remindDue());
  const register = async (app: FastifyInstance) => {
    await app.register(consentTemplatesRoutes, { templates });
    await app.register(consentEnvelopesRoutes, { envelopes, signing, perIpPerMinute: config.rateLimit.perIpPerMinute });
  };
  return { templates, envelopes, signing, seal, register };
}
