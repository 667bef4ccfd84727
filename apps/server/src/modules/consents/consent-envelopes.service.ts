import { randomUUID } from 'node:crypto';
import {
  ageOn,
  canOn,
  CONSENT_LINK_DAYS,
  CONSENT_VARIABLE_GAPS,
  type ConsentEnvelope,
  type ConsentEnvelopeList,
  type ConsentEnvelopeListQuery,
  consentErrorMessages,
  type ConsentSendCheck,
  type ConsentSignerRole,
  type ConsentVariable,
  consentVariableValues,
  dataAskedOf,
  DEFAULT_TIME_ZONE,
  isValidSignatureImage,
  missingVariables,
  scopeFor,
  type SendConsentBody,
  type SentConsent,
  signerRolesFor,
  templateTexts,
  todayIn,
} from '@divan/core';
import type { z } from 'zod';
import type { sendConsentBody } from '@divan/core';
import type { Db } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { AuditService } from '../audit/audit.service';
import type { Caller } from '../../platform/auth/caller';
import type { PatientsService } from '../patients/patients.service';
import type { UsersService } from '../users/users.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { documentSha256, shownDocument } from './consent-document';
import { consentEnvelopesRepository, type EnvelopeListed } from './consent-envelopes.repository';
import type { EnvelopeRow, SignerRow } from './consent-envelopes.tables';
import type { ConsentSigningService } from './consent-signing.service';
import type { ConsentTemplatesService } from './consent-templates.service';
import type { ConsentTemplateVersionContent } from './consent-templates.tables';

import type { RequestMeta } from '../../platform/http/request-meta';
type SendInput = z.output<typeof sendConsentBody>;

const DAY = 86_400_000;
const notFound = () => new AppError('consent_not_found');
const fullName = (u: { firstName: string; lastName: string | null }) => [u.firstName, u.lastName].filter(Boolean).join(' ');
/** The variables a template uses that these values leave blank, as the sending dialog lists them. */
const gapsOf = (content: ConsentTemplateVersionContent, values: Record<ConsentVariable, string | null>): ConsentSendCheck['missing'] =>
  missingVariables(templateTexts(content), values).map((variable) => ({ variable, ...CONSENT_VARIABLE_GAPS[variable] }));
const MISSING: Record<
  ConsentSignerRole,
  { code: 'consent_patient_data_required' | 'consent_guardian_data_required' | 'consent_second_guardian_data_required'; who: string }
> = {
  patient: { code: 'consent_patient_data_required', who: 'del paciente' },
  guardian: { code: 'consent_guardian_data_required', who: 'del tutor' },
  secondGuardian: { code: 'consent_second_guardian_data_required', who: 'del segundo tutor' },
};

/**
 * Sent consents, as members see them (spec §2 `/consents`, the patient's `consents` tab): sending a
 * template's current version to a patient or their guardians, listing, revoking, the sealed PDF.
 * `sent_consents` is ownable: the therapist who sent it is its owner; the patient must be visible too.
 */
export class ConsentEnvelopesService {
  constructor(
    private readonly d: {
      db: Db;
      patients: PatientsService;
      users: UsersService;
      workspaces: WorkspacesService;
      templates: ConsentTemplatesService;
      audit: AuditService;
      signing: ConsentSigningService;
      clock?: () => Date;
    },
  ) {}

  private now = () => this.d.clock?.() ?? new Date();

  /** Before sending: what this template would leave blank for this patient and this sender (the dialog warns and offers to fill it). */
  async check(c: Caller, q: { patientId: string; templateId: string }): Promise<ConsentSendCheck> {
    if (!canOn(c.member.ability, 'create', 'sent_consents', { ownerId: c.userId })) throw new AppError('access_denied');
    const patient = await this.d.patients.accessible(c, q.patientId);
    const version = await this.d.templates.currentVersion(c.member.workspaceId, q.templateId);
    const { variables } = await this.valuesFor(c, patient, todayIn(DEFAULT_TIME_ZONE, this.now()));
    return { missing: gapsOf(version.content, variables) };
  }

  /** The document's variables for this patient, sent by this member today, with the sender's profile. */
  private async valuesFor(c: Caller, patient: { firstName: string; lastName: string | null }, day: string) {
    const [therapist, workspaceName] = await Promise.all([
      this.d.users.getProfile(c.userId),
      this.d.workspaces.nameOf(c.member.workspaceId),
    ]);
    const patientName = [patient.firstName, patient.lastName].filter(Boolean).join(' ');
    const variables = consentVariableValues({
      patientName,
      therapistName: fullName(therapist),
      registrationNumber: therapist.registrationNumber ?? null,
      workspaceName: workspaceName ?? '',
      day,
    });
    return { therapist, patientName, variables };
  }

  async send(c: Caller, input: SendInput | SendConsentBody, meta: RequestMeta): Promise<SentConsent> {
    const body = input as SendInput;
    const ws = c.member.workspaceId;
    if (!canOn(c.member.ability, 'create', 'sent_consents', { ownerId: c.userId })) throw new AppError('access_denied');
    const patient = await this.d.patients.accessible(c, body.patientId);
    const version = await this.d.templates.currentVersion(ws, body.templateId);
    const now = this.now();
    const day = todayIn(DEFAULT_TIME_ZONE, now);
    const { therapist, patientName, variables } = await this.valuesFor(c, patient, day);
    // Blank variables are sent only once the sender has seen them (the dialog's warning, or an API client's explicit confirmation).
    const gaps = gapsOf(version.content, variables);
    if (gaps.length && !body.confirmMissing)
      throw new AppError(
        'consent_variables_missing',
        gaps.map((g) => ({ path: `variables.${g.variable}`, message: g.message })),
        consentErrorMessages.variablesMissing(gaps.map((g) => g.message)),
      );
    const age = patient.birthdate ? ageOn(patient.birthdate, day) : null;
    const { roles, minor } = signerRolesFor({ age, signatures: version.content.signatures, exception: !!body.minorException });
    if (body.minorException && !roles.includes('guardian'))
      throw new AppError(
        'invalid_argument',
        [{ path: 'minorException', message: 'Solo se usa con menores de 16 años, que firman sus tutores.' }],
        consentErrorMessages.minorExceptionWithoutGuardians,
      );
    const contacts = roles.map((role, position) => {
      const given = body.signers[role];
      const name = (role === 'patient' ? (given?.name ?? patientName) : given?.name)?.trim();
      const email = (role === 'patient' ? (given?.email ?? patient.email) : given?.email)?.trim().toLowerCase();
      if (!name || !email)
        throw new AppError(
          MISSING[role].code,
          [{ path: `signers.${role}`, message: 'Indica su nombre y su email.' }],
          consentErrorMessages.signerContactMissing(MISSING[role].who),
        );
      return { id: randomUUID(), role, position, name, email };
    });
    const therapistSignature = this.therapistSignatureFor(c, version.content, body.therapistSignature);
    const shown = shownDocument(version.content, variables, therapistSignature);
    const sha = documentSha256(shown);
    const expiresAt = new Date(now.getTime() + CONSENT_LINK_DAYS * DAY);
    const { tokenFor, hashOf } = this.d.signing.tokens;
    const { envelope, signers } = await this.d.db.transaction(async (tx) => {
      const repo = consentEnvelopesRepository(tx);
      const made = await repo.insert(
        {
          workspaceId: ws,
          patientId: patient.id,
          templateId: version.templateId,
          templateVersionId: version.versionId,
          templateVersion: version.version,
          therapistId: c.userId,
          variables,
          documentTitle: shown.documentTitle,
          documentSha256: sha,
          therapistSignature,
          minorException: body.minorException ? { reason: body.minorException.reason, otherGuardianInformed: true } : null,
          sentAt: now,
        },
        contacts.map((s) => ({ ...s, asked: dataAskedOf(s.role, version.content.data), tokenHash: hashOf(tokenFor(s.id)), expiresAt })),
      );
      const actor = fullName(therapist);
      const details = {
        therapistId: c.userId,
        templateId: version.templateId,
        version: version.version,
        minor,
        age,
        minorException: body.minorException ?? null,
      };
      await repo.addEvent({
        workspaceId: made.envelope.workspaceId,
        envelopeId: made.envelope.id,
        type: 'created',
        actor,
        at: now,
        ...meta,
        documentSha256: sha,
        details,
      });
      // The first signer now; a second guardian once the first has signed (each in turn, by their own link).
      const first = made.signers[0]!;
      await this.d.signing.mailLink(tx, made.envelope, first, { patientName, forMinor: roles[0] !== 'patient' }, now);
      await repo.addEvent({
        workspaceId: made.envelope.workspaceId,
        envelopeId: made.envelope.id,
        type: 'sent',
        signerRole: first.role,
        actor: first.name,
        at: now,
        ...meta,
        documentSha256: sha,
        details: { to: first.email },
      });
      await this.d.audit.record(tx, {
        workspaceId: ws,
        actorId: c.userId,
        action: 'consent.sent',
        target: shown.documentTitle,
        details: {
          envelopeId: made.envelope.id,
          patientId: patient.id,
          patientName,
          templateId: version.templateId,
          version: version.version,
        },
      });
      return { envelope: made.envelope, signers: await repo.signers([made.envelope.id]) };
    });
    const presented = await this.present([{ envelope, templateName: version.content.name }], signers);
    return {
      ...presented[0]!,
      links: signers.map((s) => ({ role: s.role, url: this.d.signing.urlFor(tokenFor(s.id)), mailed: !!s.mailedAt })),
    };
  }

  /**
   * When the template says the therapist signs, the signature is the sender's own: drawn now, or the
   * one kept on the template when the sender is who drew it. Never another member's signature.
   */
  private therapistSignatureFor(
    c: Caller,
    content: ConsentTemplateVersionContent,
    given: string | null | undefined,
  ): { image: string } | null {
    if (!content.signatures.therapist) return null;
    if (given) {
      if (!isValidSignatureImage(given))
        throw new AppError('consent_invalid_signature', [
          { path: 'therapistSignature', message: 'La firma no es una imagen válida. Vuelve a dibujarla.' },
        ]);
      return { image: given };
    }
    const kept = content.therapistSignature;
    if (kept && kept.signedBy === c.userId) return { image: kept.image };
    throw new AppError(
      'consent_therapist_signature_required',
      [{ path: 'therapistSignature', message: 'Firma aquí para enviarlo.' }],
      kept ? consentErrorMessages.therapistSignatureOfAnother : consentErrorMessages.therapistMustSign,
    );
  }

  async list(c: Caller, query: ConsentEnvelopeListQuery, patientId?: string): Promise<ConsentEnvelopeList> {
    if (patientId) await this.d.patients.accessible(c, patientId);
    const own = scopeFor(c.member.ability, 'read', 'sent_consents', c.userId);
    const patientsScope = scopeFor(c.member.ability, 'read', 'patient_files', c.userId);
    if (own.kind === 'none') throw new AppError('access_denied');
    const scope = {
      therapistId: own.kind === 'own' ? c.userId : null,
      patientIds: patientsScope.kind === 'all' ? null : this.d.patients.idsInScope(c.member.workspaceId, patientsScope),
    };
    const repo = consentEnvelopesRepository(this.d.db);
    const { items, total } = await repo.list(c.member.workspaceId, scope, { ...query, ...(patientId ? { patientId } : {}) });
    const signers = await repo.signers(items.map((i) => i.envelope.id));
    return { items: await this.present(items, signers), total, page: query.page, pageSize: query.pageSize };
  }

  async get(c: Caller, id: string): Promise<ConsentEnvelope> {
    const envelope = await this.accessible(c, id, 'read');
    return this.one(envelope);
  }

  async revoke(c: Caller, id: string, meta: RequestMeta): Promise<ConsentEnvelope> {
    const found = await this.accessible(c, id, 'update');
    const now = this.now();
    const envelope = await this.d.db.transaction(async (tx) => {
      const repo = consentEnvelopesRepository(tx);
      const e = (await repo.lock(found.id))!;
      if (e.state === 'signed') throw new AppError('consent_already_signed', undefined, consentErrorMessages.signedNotRevocable);
      if (e.state === 'revoked') return e;
      const updated = await repo.update(e.id, { state: 'revoked', revokedAt: now, revokedBy: c.userId });
      await repo.addEvent({
        workspaceId: e.workspaceId,
        envelopeId: e.id,
        type: 'revoked',
        actor: c.userId,
        at: now,
        ...meta,
        documentSha256: e.documentSha256,
        details: { by: c.userId },
      });
      await this.d.audit.record(tx, {
        workspaceId: e.workspaceId,
        actorId: c.userId,
        action: 'consent.revoked',
        target: e.documentTitle,
        details: { envelopeId: e.id, patientId: e.patientId, patientName: (await this.d.signing.patientOf(e, tx)).name },
      });
      return updated;
    });
    return this.one(envelope);
  }

  /** The sealed PDF of a signed envelope, as stored among the patient's documents. */
  async pdf(c: Caller, id: string) {
    const e = await this.accessible(c, id, 'read');
    if (e.state !== 'signed') throw new AppError('consent_not_found', undefined, consentErrorMessages.pdfUnsigned);
    if (!e.documentId) throw new AppError('consent_not_found', undefined, consentErrorMessages.pdfSealing);
    const pdf = await this.d.signing.storedPdf(e);
    if (!pdf) throw new AppError('consent_not_found', undefined, consentErrorMessages.pdfDeleted);
    return { name: `${e.documentTitle}.pdf`, pdf };
  }

  /** The envelope if the caller may `action` it and sees its patient; 404 otherwise (nothing learnt of others). */
  private async accessible(c: Caller, id: string, action: 'read' | 'update'): Promise<EnvelopeRow> {
    const e = await consentEnvelopesRepository(this.d.db).find(c.member.workspaceId, id);
    if (!e || !canOn(c.member.ability, 'read', 'sent_consents', { ownerId: e.therapistId })) throw notFound();
    await this.d.patients.accessible(c, e.patientId).catch(() => {
      throw notFound();
    });
    if (!canOn(c.member.ability, action, 'sent_consents', { ownerId: e.therapistId })) throw new AppError('access_denied');
    return e;
  }

  private async one(e: EnvelopeRow): Promise<ConsentEnvelope> {
    const repo = consentEnvelopesRepository(this.d.db);
    return (await this.present([{ envelope: e, templateName: await repo.templateName(e.templateId) }], await repo.signers([e.id])))[0]!;
  }

  private async present(items: EnvelopeListed[], signers: SignerRow[]): Promise<ConsentEnvelope[]> {
    const [users, patients] = await Promise.all([
      this.d.users.findManyByIds([...new Set(items.map((i) => i.envelope.therapistId).filter((x): x is string => !!x))]),
      items.length
        ? this.d.patients.namesOf(
            items[0]!.envelope.workspaceId,
            items.map((i) => i.envelope.patientId),
          )
        : new Map<string, string>(),
    ]);
    const names = new Map(users.map((u) => [u.id, fullName(u)]));
    const iso = (d: Date | null) => d?.toISOString() ?? null;
    return items.map(({ envelope: e, templateName }) => ({
      id: e.id,
      state: e.state,
      patient: { id: e.patientId, name: patients.get(e.patientId) ?? '' },
      template: { id: e.templateId, version: e.templateVersion, name: templateName },
      documentTitle: e.documentTitle,
      therapist: e.therapistId ? { id: e.therapistId, name: names.get(e.therapistId) ?? 'Usuario eliminado' } : null,
      signers: signers
        .filter((s) => s.envelopeId === e.id)
        .map((s) => ({
          role: s.role,
          name: s.name,
          email: s.email,
          openedAt: iso(s.openedAt),
          signedAt: iso(s.signedAt),
          mailedAt: iso(s.mailedAt),
          expiresAt: s.expiresAt.toISOString(),
        })),
      minorException: e.minorException ?? null,
      documentId: e.documentId,
      sentAt: e.sentAt.toISOString(),
      completedAt: iso(e.completedAt),
      revokedAt: iso(e.revokedAt),
    }));
  }
}
