import type { ReadyMadeConsentTemplate } from './build';
import { dataProtection } from './data-protection';
import { minorTwoGuardians } from './minor-two-guardians';
import { onlineSessions } from './online-sessions';
import { psychologicalTreatment } from './psychological-treatment';
import { sessionRecording } from './session-recording';

export type { ReadyMadeConsentTemplate } from './build';

/**
 * Ready-made consent templates in Spanish, written for a psychology practice in Spain. A therapist
 * copies one into their workspace and edits it there; these never change under a copy.
 */
export const READY_MADE_CONSENT_TEMPLATES: readonly ReadyMadeConsentTemplate[] = [
  psychologicalTreatment,
  dataProtection,
  onlineSessions,
  minorTwoGuardians,
  sessionRecording,
];

export const READY_MADE_CONSENT_KEYS = READY_MADE_CONSENT_TEMPLATES.map((t) => t.key) as [string, ...string[]];

export const readyMadeConsentTemplate = (key: string): ReadyMadeConsentTemplate | undefined =>
  READY_MADE_CONSENT_TEMPLATES.find((t) => t.key === key);
