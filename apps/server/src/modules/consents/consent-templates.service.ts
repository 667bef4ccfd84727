import {
  consentErrorMessages,
  type ConsentTemplate,
  type ConsentTemplateContent,
  type ConsentTemplateList,
  type ConsentTemplateListQuery,
  consentTemplateProblems,
  type ConsentTemplateVersionSummary,
  READY_MADE_CONSENT_TEMPLATES,
  readyMadeConsentTemplate,
  type ReadyMadeConsentTemplateResponse,
} from '@divan/core';
import type { Db, DbOrTx } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { AuditAction, AuditService } from '../audit/audit.service';
import type { Caller } from '../../platform/auth/caller';
import { sanitizeRichText } from '../patients/rich-text';
import type { UsersService } from '../users/users.service';
import { consentTemplatesRepository, searchTextOf } from './consent-templates.repository';
import type {
  ConsentTemplateRow,
  ConsentTemplateVersionContent,
  ConsentTemplateVersionRow,
  StoredTherapistSignature,
} from './consent-templates.tables';

/** A template as a request writes it: the content and, absent, null or new, the therapist's signature. */
export type TemplateInput = ConsentTemplateContent & { therapistSignature?: string | null };

/** A frozen version, as a sent consent reads it. */
export type ConsentTemplateVersion = {
  templateId: string;
  workspaceId: string;
  version: number;
  versionId: string;
  content: ConsentTemplateVersionContent;
};

const templateNotFound = () => new AppError('consent_not_found', undefined, consentErrorMessages.templateNotFound);
// Consent templates' audit actions (AuditAction in the audit module does not list them yet).
/** JSON with every object's keys sorted: a jsonb value read back (its keys reordered) compares equal to what was written. */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x,
  );
const fullName = (u: { firstName: string; lastName: string | null }) => [u.firstName, u.lastName].filter(Boolean).join(' ');

/**
 * A workspace's consent templates: created (from scratch or copied from a ready-made one), edited
 * (each save a new frozen version; the old ones stay readable, so a sent consent keeps the text it
 * was sent with), archived. Templates belong to the workspace, not to a member: the route's
 * `consent_templates` permission is the whole check, and every query names the workspace.
 */
export class ConsentTemplatesService {
  constructor(
    private readonly db: Db,
    private readonly users: UsersService,
    private readonly audit: AuditService,
  ) {}

  readyMade(): ReadyMadeConsentTemplateResponse[] {
    return READY_MADE_CONSENT_TEMPLATES.map((t) => ({ key: t.key, name: t.content.name, description: t.description, content: t.content }));
  }

  async list(c: Caller, query: ConsentTemplateListQuery): Promise<ConsentTemplateList> {
    const { items, total } = await consentTemplatesRepository(this.db).list(c.member.workspaceId, query);
    return {
      items: items.map(({ template: t, signatures }) => ({
        id: t.id,
        name: t.name,
        documentTitle: t.documentTitle,
        version: t.currentVersion,
        signatures,
        readyMadeKey: t.readyMadeKey,
        archivedAt: t.archivedAt?.toISOString() ?? null,
        createdAt: t.createdAt.toISOString(),
        updatedAt: t.updatedAt.toISOString(),
      })),
      total,
      page: query.page,
      pageSize: query.pageSize,
    };
  }

  /** The latest version, or the one asked for (archived templates too: what was sent stays readable). */
  async get(c: Caller, id: string, version?: number): Promise<ConsentTemplate> {
    const repo = consentTemplatesRepository(this.db);
    const t = await repo.find(c.member.workspaceId, id);
    if (!t) throw templateNotFound();
    const v = await repo.version(t.id, version ?? t.currentVersion);
    if (!v)
      throw new AppError(
        'consent_invalid_version',
        undefined,
        consentErrorMessages.noSuchVersion(version ?? t.currentVersion, t.currentVersion),
      );
    return this.present(t, v);
  }

  async versions(c: Caller, id: string): Promise<ConsentTemplateVersionSummary[]> {
    const repo = consentTemplatesRepository(this.db);
    const t = await repo.find(c.member.workspaceId, id);
    if (!t) throw templateNotFound();
    const rows = await repo.versions(t.id);
    const names = await this.names(rows.map((r) => r.createdBy));
    return rows.map((r) => ({
      version: r.version,
      name: r.name,
      createdAt: r.createdAt.toISOString(),
      createdBy: this.person(names, r.createdBy),
    }));
  }

  async create(c: Caller, input: TemplateInput, readyMadeKey: string | null = null): Promise<ConsentTemplate> {
    const content = await this.prepare(c, input, null);
    const { template, version } = await this.db.transaction(async (tx) => {
      const repo = consentTemplatesRepository(tx);
      const template = await repo.insert(
        {
          workspaceId: c.member.workspaceId,
          currentVersion: 1,
          name: content.name,
          documentTitle: content.documentTitle,
          searchText: searchTextOf(content),
          readyMadeKey,
          createdBy: c.userId,
        },
        content,
        c.userId,
      );
      await this.record(tx, c, 'consent_template.created', template, { readyMadeKey });
      return { template, version: (await repo.version(template.id, 1))! };
    });
    return this.present(template, version);
  }

  /** A copy of a ready-made template, named apart from the workspace's templates of the same name. */
  async copyReadyMade(c: Caller, key: string, body: { name?: string; therapistSignature?: string | null }): Promise<ConsentTemplate> {
    const ready = readyMadeConsentTemplate(key);
    if (!ready) throw new AppError('consent_not_found', undefined, consentErrorMessages.readyMadeNotFound);
    const name = await this.freeName(c.member.workspaceId, body.name ?? ready.content.name);
    return this.create(c, { ...structuredClone(ready.content), name, therapistSignature: body.therapistSignature }, ready.key);
  }

  /**
   * A new version from the whole template as edited from `baseVersion`. Another save since then is a
   * `consent_invalid_version` (409): nobody overwrites an edit they have not seen. Saving what the
   * current version already says makes no new version.
   */
  async update(c: Caller, id: string, input: TemplateInput & { baseVersion: number }): Promise<ConsentTemplate> {
    const ws = c.member.workspaceId;
    const existing = await consentTemplatesRepository(this.db).find(ws, id);
    if (!existing || existing.archivedAt) throw templateNotFound();
    const before = (await consentTemplatesRepository(this.db).version(existing.id, existing.currentVersion))!;
    const content = await this.prepare(c, input, before.content.therapistSignature);
    const { template, version } = await this.db.transaction(async (tx) => {
      const repo = consentTemplatesRepository(tx);
      const current = await repo.lock(ws, id);
      if (!current || current.archivedAt) throw templateNotFound();
      if (current.currentVersion !== input.baseVersion)
        throw new AppError(
          'consent_invalid_version',
          [{ path: 'baseVersion', message: `La plantilla va por la versión ${current.currentVersion}.` }],
          consentErrorMessages.savedMeanwhile(current.currentVersion),
        );
      const latest = (await repo.version(current.id, current.currentVersion))!;
      if (canonical(latest.content) === canonical(content)) return { template: current, version: latest };
      const template = await repo.addVersion(current, content, c.userId);
      await this.record(tx, c, 'consent_template.updated', template, { version: template.currentVersion });
      return { template, version: (await repo.version(template.id, template.currentVersion))! };
    });
    return this.present(template, version);
  }

  /** Archived, not erased: it leaves the list, and the versions consents were sent with stay. */
  async delete(c: Caller, id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const repo = consentTemplatesRepository(tx);
      const t = await repo.lock(c.member.workspaceId, id);
      if (!t || t.archivedAt) throw templateNotFound();
      await repo.archive(t.id, c.userId);
      await this.record(tx, c, 'consent_template.deleted', t, { version: t.currentVersion });
    });
  }

  /** For sending a consent: the current version of a template in use (not archived). */
  async currentVersion(workspaceId: string, templateId: string, tx: DbOrTx = this.db): Promise<ConsentTemplateVersion> {
    const t = await consentTemplatesRepository(tx).find(workspaceId, templateId);
    if (!t || t.archivedAt) throw templateNotFound();
    return this.frozen(workspaceId, templateId, t.currentVersion, tx);
  }

  /** For a sent consent: the version it was sent with, as it was (archived templates too). */
  async frozen(workspaceId: string, templateId: string, version: number, tx: DbOrTx = this.db): Promise<ConsentTemplateVersion> {
    const repo = consentTemplatesRepository(tx);
    const t = await repo.find(workspaceId, templateId);
    if (!t) throw templateNotFound();
    const v = await repo.version(t.id, version);
    if (!v) throw new AppError('consent_invalid_version');
    return { templateId: t.id, workspaceId: t.workspaceId, version: v.version, versionId: v.id, content: v.content };
  }

  /**
   * The content a version will hold: section bodies reduced to the clinical history's HTML allow-list,
   * the therapist's signature kept, replaced or removed, then the rules of core (spec §5, §8): the first
   * problem is the answer's code, every problem of that code a field error.
   */
  private async prepare(c: Caller, input: TemplateInput, current: StoredTherapistSignature | null): Promise<ConsentTemplateVersionContent> {
    const sections = await Promise.all(
      input.sections.map(async (s) => ({ title: s.title, body: await sanitizeRichText(s.body), checkbox: s.checkbox })),
    );
    const image = input.signatures.therapist
      ? input.therapistSignature === undefined
        ? (current?.image ?? null)
        : input.therapistSignature
      : null;
    const problems = consentTemplateProblems({ ...input, sections, therapistSignature: image });
    if (problems.length) {
      const first = problems[0]!;
      throw new AppError(
        first.code,
        problems.filter((p) => p.code === first.code).map(({ path, message }) => ({ path, message })),
        first.message,
      );
    }
    const therapistSignature: StoredTherapistSignature | null = image
      ? current?.image === image
        ? current
        : { image, signedBy: c.userId, signedAt: new Date().toISOString() }
      : null;
    return {
      name: input.name,
      documentTitle: input.documentTitle,
      data: input.data,
      sections,
      signatures: input.signatures,
      therapistSignature,
    };
  }

  /** «Nombre», or «Nombre (2)», «Nombre (3)»… when the workspace already has a template so named. */
  private async freeName(workspaceId: string, name: string): Promise<string> {
    const taken = new Set(await consentTemplatesRepository(this.db).namesLike(workspaceId, name));
    if (!taken.has(name)) return name;
    for (let n = 2; ; n++) {
      const candidate = `${name} (${n})`;
      if (!taken.has(candidate)) return candidate;
    }
  }

  private record(
    tx: DbOrTx,
    c: Caller,
    action: Extract<AuditAction, `consent_template.${string}`>,
    t: ConsentTemplateRow,
    details: Record<string, unknown>,
  ) {
    return this.audit.record(tx, {
      workspaceId: t.workspaceId,
      actorId: c.userId,
      action,
      target: t.name,
      details: { templateId: t.id, ...details },
    });
  }

  private async names(ids: (string | null)[]) {
    const users = await this.users.findManyByIds(ids.filter((x): x is string => !!x));
    return new Map(users.map((u) => [u.id, fullName(u)]));
  }

  private person(names: Map<string, string>, id: string | null) {
    return id ? { id, name: names.get(id) ?? 'Usuario eliminado' } : null;
  }

  private async present(t: ConsentTemplateRow, v: ConsentTemplateVersionRow): Promise<ConsentTemplate> {
    const { therapistSignature: sig, ...content } = v.content;
    const names = await this.names([v.createdBy, sig?.signedBy ?? null]);
    return {
      id: t.id,
      version: v.version,
      latestVersion: t.currentVersion,
      ...content,
      therapistSignature: sig ? { image: sig.image, signedBy: this.person(names, sig.signedBy), signedAt: sig.signedAt } : null,
      readyMadeKey: t.readyMadeKey,
      archivedAt: t.archivedAt?.toISOString() ?? null,
      createdAt: t.createdAt.toISOString(),
      updatedAt: t.updatedAt.toISOString(),
      versionCreatedAt: v.createdAt.toISOString(),
      versionCreatedBy: this.person(names, v.createdBy),
    };
  }
}
