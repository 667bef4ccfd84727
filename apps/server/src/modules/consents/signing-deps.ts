import type { FastifyBaseLogger } from 'fastify';
import type { Cipher } from '../../platform/crypto/cipher';
import type { Db } from '../../platform/db/database';
import type { DocumentSeal } from '../../platform/documents/seal';
import type { Jobs } from '../../platform/jobs/jobs';
import type { Mailer } from '../../platform/mail/mailer';
import type { Storage } from '../../platform/storage/storage';
import type { AuditService } from '../audit/audit.service';
import type { DocumentsService } from '../documents/documents.service';
import type { PatientsService } from '../patients/patients.service';
import type { UsersService } from '../users/users.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import type { ConsentTemplatesService } from './consent-templates.service';

/**
 * What signing a consent works with: the signing service (consent-signing.service.ts) and the sealing
 * of a signed envelope (consent-completion.ts) both take it, so neither imports the other for it.
 */
export type SigningDeps = {
  db: Db;
  appSecret: string;
  publicUrl: string;
  mailer: Mailer;
  jobs: Jobs;
  users: UsersService;
  workspaces: WorkspacesService;
  patients: PatientsService;
  documents: DocumentsService;
  audit: AuditService;
  templates: ConsentTemplatesService;
  storage: Storage;
  cipher: Cipher;
  /** The installation's seal, opened on first use. */
  seal: () => DocumentSeal;
  clock?: () => Date;
  log?: FastifyBaseLogger;
};
