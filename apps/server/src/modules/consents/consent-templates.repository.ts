import { and, asc, count, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { normalizeText, type ConsentSignatures, type ConsentTemplateListQuery } from '@divan/core';
import type { DbOrTx } from '../../platform/db/database';
import {
  consentTemplates,
  consentTemplateVersions,
  type ConsentTemplateRow,
  type ConsentTemplateVersionContent,
  type ConsentTemplateVersionRow,
} from './consent-templates.tables';

export type NewConsentTemplate = typeof consentTemplates.$inferInsert;

/** What search matches: the name and the document title, lower case and without accents. */
export const searchTextOf = (c: Pick<ConsentTemplateVersionContent, 'name' | 'documentTitle'>) =>
  normalizeText(`${c.name} ${c.documentTitle}`);

const SORTS = {
  name: [asc(consentTemplates.name), asc(consentTemplates.id)],
  updatedAt: [desc(consentTemplates.updatedAt), desc(consentTemplates.id)],
} as const;

/** Every read and write names the workspace: a template is reached only in its own. */
export function consentTemplatesRepository(db: DbOrTx) {
  const inWorkspace = (workspaceId: string, id: string) => and(eq(consentTemplates.workspaceId, workspaceId), eq(consentTemplates.id, id));
  return {
    async insert(values: NewConsentTemplate, content: ConsentTemplateVersionContent, createdBy: string): Promise<ConsentTemplateRow> {
      const [row] = await db.insert(consentTemplates).values(values).returning();
      await db
        .insert(consentTemplateVersions)
        .values({ workspaceId: row!.workspaceId, templateId: row!.id, version: 1, content, createdBy });
      return row!;
    },
    async find(workspaceId: string, id: string): Promise<ConsentTemplateRow | undefined> {
      const [row] = await db.select().from(consentTemplates).where(inWorkspace(workspaceId, id));
      return row;
    },
    /** Locked for a new version or an archive: two saves at once are made one after the other. */
    async lock(workspaceId: string, id: string): Promise<ConsentTemplateRow | undefined> {
      const [row] = await db.select().from(consentTemplates).where(inWorkspace(workspaceId, id)).for('update');
      return row;
    },
    async version(templateId: string, version: number): Promise<ConsentTemplateVersionRow | undefined> {
      const [row] = await db
        .select()
        .from(consentTemplateVersions)
        .where(and(eq(consentTemplateVersions.templateId, templateId), eq(consentTemplateVersions.version, version)));
      return row;
    },
    async versions(templateId: string) {
      return db
        .select({
          version: consentTemplateVersions.version,
          name: sql<string>`${consentTemplateVersions.content}->>'name'`,
          createdAt: consentTemplateVersions.createdAt,
          createdBy: consentTemplateVersions.createdBy,
        })
        .from(consentTemplateVersions)
        .where(eq(consentTemplateVersions.templateId, templateId))
        .orderBy(desc(consentTemplateVersions.version));
    },
    /** The next version, and the template row pointing at it. */
    async addVersion(template: ConsentTemplateRow, content: ConsentTemplateVersionContent, createdBy: string): Promise<ConsentTemplateRow> {
      const version = template.currentVersion + 1;
      await db
        .insert(consentTemplateVersions)
        .values({ workspaceId: template.workspaceId, templateId: template.id, version, content, createdBy });
      const [row] = await db
        .update(consentTemplates)
        .set({
          currentVersion: version,
          name: content.name,
          documentTitle: content.documentTitle,
          searchText: searchTextOf(content),
          updatedAt: new Date(),
        })
        .where(eq(consentTemplates.id, template.id))
        .returning();
      return row!;
    },
    async archive(id: string, by: string): Promise<void> {
      await db.update(consentTemplates).set({ archivedAt: new Date(), archivedBy: by }).where(eq(consentTemplates.id, id));
    },
    /** Names in use by the workspace's templates (not archived) that start like `name`: to name a copy apart. */
    async namesLike(workspaceId: string, name: string): Promise<string[]> {
      const prefix = `${name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const rows = await db
        .select({ name: consentTemplates.name })
        .from(consentTemplates)
        .where(
          and(
            eq(consentTemplates.workspaceId, workspaceId),
            isNull(consentTemplates.archivedAt),
            sql`${consentTemplates.name} like ${prefix}`,
          ),
        );
      return rows.map((r) => r.name);
    },
    /** One page and the total, in two bounded queries; sort and filters from allow-lists. */
    async list(workspaceId: string, q: ConsentTemplateListQuery) {
      const term = q.q ? normalizeText(q.q) : '';
      const where = and(
        eq(consentTemplates.workspaceId, workspaceId),
        q.archived ? isNotNull(consentTemplates.archivedAt) : isNull(consentTemplates.archivedAt),
        term ? sql`${consentTemplates.searchText} like ${`%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}` : undefined,
      );
      const [items, [total]] = await Promise.all([
        db
          .select({ template: consentTemplates, signatures: sql<ConsentSignatures>`${consentTemplateVersions.content}->'signatures'` })
          .from(consentTemplates)
          .innerJoin(
            consentTemplateVersions,
            and(
              eq(consentTemplateVersions.templateId, consentTemplates.id),
              eq(consentTemplateVersions.version, consentTemplates.currentVersion),
            ),
          )
          .where(where)
          .orderBy(...SORTS[q.sort])
          .limit(q.pageSize)
          .offset((q.page - 1) * q.pageSize),
        db.select({ n: count() }).from(consentTemplates).where(where),
      ]);
      return { items, total: total?.n ?? 0 };
    },
  };
}
