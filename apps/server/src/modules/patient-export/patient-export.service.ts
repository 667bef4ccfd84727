import { canOn, type PatientExport } from '@divan/core';
import type { DocumentsService } from '../documents/documents.service';
import type { HistoryService } from '../patients/history.service';
import type { MeasuresService } from '../measures/measures.service';
import type { Caller } from '../../platform/auth/caller';
import type { PatientsService } from '../patients/patients.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { htmlToText } from './html-text';
import { renderPatientPdf } from './patient-pdf';

/**
 * A patient's full file, as JSON or PDF: each section only when the caller may read it, private
 * history entries never (a file handed to the patient or another professional must not carry
 * them). Every export is written to the clinical access log.
 */
export class PatientExportService {
  constructor(
    private readonly patients: PatientsService,
    private readonly history: HistoryService,
    private readonly documents: DocumentsService,
    private readonly workspaces: WorkspacesService,
    private readonly measures: MeasuresService,
  ) {}

  async json(c: Caller, patientId: string): Promise<PatientExport> {
    // `get` checks the record and leaves out billing and treatment the caller may not read.
    const { billingInfo, treatment, counts: _counts, ...patient } = await this.patients.get(c, patientId);
    const owner = { ownerId: patient.assignedTherapist?.id ?? null };
    const history = canOn(c.member.ability, 'read', 'patient_histories', owner)
      ? (await this.history.list(c, patient.id))
          .filter((e) => !e.private)
          .map((e) => ({
            id: e.id,
            date: e.date,
            title: e.title,
            body: e.body,
            text: htmlToText(e.body),
            author: e.author,
            createdAt: e.createdAt,
            updatedAt: e.updatedAt,
          }))
      : null;
    const documents = canOn(c.member.ability, 'read', 'patient_documents', owner)
      ? (await this.documents.list(c, patient.id)).map(({ patientId: _p, ...d }) => d)
      : null;
    const measures = canOn(c.member.ability, 'read', 'patient_histories', owner) ? await this.measures.forExport(c, patient.id) : null;
    await this.patients.logAccess(
      c,
      { id: patient.id, workspaceId: c.member.workspaceId, firstName: patient.firstName, lastName: patient.lastName },
      'file.export',
    );
    return {
      generatedAt: new Date().toISOString(),
      patient,
      billingInfo: billingInfo ?? null,
      treatment: treatment ?? null,
      history,
      documents,
      measures,
    };
  }

  async pdf(c: Caller, patientId: string) {
    const data = await this.json(c, patientId);
    return {
      filename: this.filename(data, 'pdf'),
      stream: await renderPatientPdf(data, await this.workspaces.nameOf(c.member.workspaceId)),
    };
  }

  /** "Expediente Ana López 2026-11-20.pdf" */
  filename = (data: PatientExport, ext: 'json' | 'pdf') =>
    `Expediente ${[data.patient.firstName, data.patient.lastName].filter(Boolean).join(' ')} ${data.generatedAt.slice(0, 10)}.${ext}`;
}
