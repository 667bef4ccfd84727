import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import { bookingEmbeds } from './booking-embed.tables';

/** The origins a workspace lets frame its public booking pages. */
export function bookingEmbedRepository(db: DbOrTx) {
  return {
    async origins(workspaceId: string): Promise<string[] | undefined> {
      const [row] = await db
        .select({ origins: bookingEmbeds.allowedOrigins })
        .from(bookingEmbeds)
        .where(eq(bookingEmbeds.workspaceId, workspaceId));
      return row?.origins;
    },
    async put(workspaceId: string, origins: string[]): Promise<void> {
      await db
        .insert(bookingEmbeds)
        .values({ workspaceId, allowedOrigins: origins })
        .onConflictDoUpdate({ target: bookingEmbeds.workspaceId, set: { allowedOrigins: origins, updatedAt: new Date() } });
    },
  };
}
