import { PATIENT_FIELDS, readableAcross, scopeFor, type AnalyticsTab, type Scope } from '@divan/core';
import type { Caller } from '../../platform/auth/caller';
import { AppError } from '../../platform/errors';

/**
 * What a member's statistics count, from their permissions (the server is the guard): sessions by their
 * therapist, patients by the one assigned, and whether treatment fields (status, motive, session type,
 * referral, ending) may be counted — Recepción reads none, so none of their aggregates either.
 */
export type StatsScope = {
  workspaceId: string;
  /** Null: the member reads no sessions. `therapistId` unset: every therapist's. */
  sessions: { therapistId?: string } | null;
  patients: { therapistId?: string } | null;
  /** The patients a breakdown may count, whatever therapist the period's sessions are filtered by. */
  patientsReadable: { therapistId?: string } | null;
  treatment: boolean;
};

const narrowed = (s: Scope, userId: string, therapistId: string | undefined): { therapistId?: string } | null => {
  if (s.kind === 'none') return null;
  if (s.kind === 'own') return { therapistId: userId };
  return therapistId ? { therapistId } : {};
};

/** The subject whose scope decides whether a tab may be filtered by another therapist. */
const MAIN: Record<AnalyticsTab | 'dashboard', 'sessions' | 'patient_files' | 'patient_treatment' | 'invoices'> = {
  dashboard: 'sessions',
  sessions: 'sessions',
  patients: 'patient_files',
  treatments: 'patient_treatment',
  billing: 'invoices',
};

/**
 * The caller's scope for a tab. Asking for another therapist when the tab's records are only one's own
 * is refused (403), not answered with one's own numbers under another's name.
 */
export function statsScope(c: Caller, tab: AnalyticsTab | 'dashboard', therapistId?: string): StatsScope {
  const a = c.member.ability;
  const sessions = scopeFor(a, 'read', 'sessions', c.userId);
  const files = scopeFor(a, 'read', 'patient_files', c.userId);
  const treatmentScope = scopeFor(a, 'read', 'patient_treatment', c.userId);
  const main = MAIN[tab];
  const mainScope =
    main === 'invoices'
      ? a.can('read', 'workspace_invoices')
        ? ({ kind: 'all' } as const)
        : scopeFor(a, 'read', 'invoices', c.userId)
      : main === 'sessions'
        ? sessions
        : main === 'patient_treatment'
          ? treatmentScope
          : files;
  if (mainScope.kind === 'none') throw new AppError('access_denied');
  if (therapistId && mainScope.kind === 'own' && therapistId !== c.userId) throw new AppError('access_denied');
  // Tratamientos counts the patients whose treatment the member reads; the other tabs, those whose file.
  const patients = narrowed(tab === 'treatments' ? treatmentScope : files, c.userId, therapistId);
  const listScope: Scope = files.kind === 'own' || therapistId ? { kind: 'own', ownerId: patients?.therapistId ?? c.userId } : files;
  return {
    workspaceId: c.member.workspaceId,
    sessions: narrowed(sessions, c.userId, therapistId),
    patients,
    patientsReadable: narrowed(files, c.userId, undefined),
    treatment:
      tab === 'treatments'
        ? treatmentScope.kind !== 'none'
        : files.kind !== 'none' && readableAcross(a, PATIENT_FIELDS, 'motive', listScope, c.userId),
  };
}
