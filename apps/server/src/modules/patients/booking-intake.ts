import { DEFAULT_TIME_ZONE, todayIn } from '@divan/core';
import type { DbOrTx, Tx } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { Emit } from '../../platform/events/event-bus';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { patientsRepository, searchTextOf, type NewPatient } from './patients.repository';
import type { PatientRow } from './patients.tables';

export type BookingPatient = { id: string; firstName: string; treatmentStatus: PatientRow['treatmentStatus'] };
export type BookingVisitor = { firstName: string; lastName: string | null; email: string; phone: string };

/**
 * The patient file behind a booking made on the public page, by a visitor who proved their email
 * (the booking module checks the mailed code first). Found by that email among the workspace's files
 * (blocked ones are not); a new visitor gets a file of their own, active, assigned to the therapist
 * they booked with and referred by the website; a returning one whose treatment had ended is active
 * again. The plan's limit of active patients holds as everywhere: past it the service takes no one new
 * (`public_service_not_accepting_new_patients`, the visitor's answer; the therapist's is in their plan).
 */
export class BookingIntake {
  constructor(private readonly workspaces: WorkspacesService) {}

  /** The file of this (lower-case) email in the workspace, whatever the case it was typed in: the most recent one when several share it. */
  async findByEmail(db: DbOrTx, workspaceId: string, email: string): Promise<BookingPatient | undefined> {
    return patientsRepository(db).findByEmail(workspaceId, email);
  }

  /** Inside the booking's transaction: the visitor's file, found again under the workspace's lock, or created. */
  async admit(
    tx: Tx,
    emit: Emit,
    workspaceId: string,
    therapistId: string,
    v: BookingVisitor,
    now: Date,
  ): Promise<{ id: string; created: boolean }> {
    await this.workspaces.lockWorkspace(workspaceId, tx);
    const found = await this.findByEmail(tx, workspaceId, v.email);
    if (found) {
      if (found.treatmentStatus !== 'active') {
        await this.assertBelowLimit(tx, workspaceId, therapistId);
        await patientsRepository(tx).update(found.id, {
          treatmentStatus: 'active',
          treatmentEndDate: null,
          treatmentEndingReason: null,
          lastActivityAt: now,
        });
        emit('patient.updated', { workspaceId, patientId: found.id, parts: ['treatment'], treatmentStatus: 'active' });
      }
      return { id: found.id, created: false };
    }
    await this.assertBelowLimit(tx, workspaceId, therapistId);
    const values: NewPatient = {
      workspaceId,
      assignedTherapistId: therapistId,
      firstName: v.firstName,
      lastName: v.lastName,
      email: v.email,
      phone: v.phone,
      treatmentStatus: 'active',
      treatmentStartDate: todayIn(DEFAULT_TIME_ZONE, now),
      treatmentReferralSource: 'website',
      searchText: '',
    };
    values.searchText = searchTextOf(values as PatientRow);
    const created = await patientsRepository(tx).insert(values);
    emit('patient.created', { workspaceId, patientId: created.id, assignedTherapistId: therapistId });
    return { id: created.id, created: true };
  }

  private async assertBelowLimit(tx: DbOrTx, workspaceId: string, therapistId: string) {
    const { activePatientLimit } = await this.workspaces.featuresOf(workspaceId, tx);
    if (activePatientLimit !== null && (await patientsRepository(tx).countActiveFor(workspaceId, therapistId)) >= activePatientLimit)
      throw new AppError('public_service_not_accepting_new_patients');
  }
}
