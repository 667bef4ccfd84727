import type { Db, Tx } from '../../platform/db/database';
import type { Emit, EventBus, OnCommit } from '../../platform/events/event-bus';
import { patientsRepository } from './patients.repository';
import { retentionEnd } from './patient-retention';
import type { PatientRow } from './patients.tables';

/**
 * Part of erasing a patient, run inside the erasure transaction: what a feature keeps per patient goes
 * with it or not at all. Work that can only follow the commit (stored bytes) goes to `onCommit`.
 */
export type ErasureStep = (tx: Tx, patient: PatientRow, onCommit: OnCommit) => Promise<void>;

/** Erasing a patient for good, with every feature's part, and the sweep that erases once retention ends. */
export class PatientErasure {
  constructor(
    private readonly db: Db,
    private readonly events: EventBus,
    /** What other modules keep per patient, erased atomically with it (documents: patient-documents.ts). */
    private readonly steps: () => readonly ErasureStep[],
  ) {}

  async erase(tx: Tx, p: PatientRow, emit: Emit, onCommit: OnCommit) {
    for (const step of this.steps()) await step(tx, p, onCommit);
    await patientsRepository(tx).delete(p.id);
    emit('patient.erased', { workspaceId: p.workspaceId, patientId: p.id });
  }

  /**
   * The retention sweep (hourly): patients blocked inside the retention period are erased once it ends,
   * each in its own transaction, a bounded batch a run. The date is checked again in SQL and in code.
   */
  async expiredBlocked(now: Date, limit: number): Promise<number> {
    const due = (await patientsRepository(this.db).blockedPastRetention(now, limit)).filter((p) => retentionEnd(p) <= now);
    for (const row of due)
      await this.events.transaction(this.db, async (tx, emit, onCommit) => {
        // Read again under a lock: new clinical activity since the first read restarts the period.
        const p = await patientsRepository(tx).lockBlocked(row.id);
        if (p && retentionEnd(p) <= now) await this.erase(tx, p, emit, onCommit);
      });
    return due.length;
  }
}
