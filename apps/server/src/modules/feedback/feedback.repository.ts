import type { DbOrTx } from '../../platform/db/database';
import { feedback, type FeedbackRow } from './feedback.tables';

export function feedbackRepository(db: DbOrTx) {
  return {
    async insert(values: typeof feedback.$inferInsert): Promise<FeedbackRow> {
      const [row] = await db.insert(feedback).values(values).returning();
      return row!;
    },
  };
}
