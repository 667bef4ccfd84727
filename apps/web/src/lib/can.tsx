import type { ReactNode } from 'react';
import type { Action, Subject } from '@divan/core';
import { useCan } from './ability';

/**
 * Its children when the member may do `action` on `subject`. Default export so that a screen that
 * rarely needs the check can `lazy()`-load it, and with it CASL (~6 KB gzipped): see TrialBanner.
 */
export default function Can({ action, subject, children }: { action: Action; subject: Subject; children: ReactNode }) {
  return useCan(action, subject) ? children : null;
}
