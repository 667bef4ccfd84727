import { useSyncExternalStore } from 'react';

/**
 * «Ocultar importes»: one click hides every euro figure of the dashboard and the statistics (a therapist
 * shares the screen in sessions), remembered on this device across reloads and tabs.
 */
const KEY = 'divan:hide-amounts';
const listeners = new Set<() => void>();

const read = () => {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
};

function subscribe(fn: () => void) {
  listeners.add(fn);
  const onStorage = (e: StorageEvent) => e.key === KEY && fn();
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(fn);
    window.removeEventListener('storage', onStorage);
  };
}

export function setAmountsHidden(hidden: boolean) {
  try {
    if (hidden) localStorage.setItem(KEY, '1');
    else localStorage.removeItem(KEY);
  } catch {
    // A browser that keeps nothing: hidden for this page only.
  }
  for (const fn of listeners) fn();
}

export const useAmountsHidden = () => useSyncExternalStore(subscribe, read, () => false);

/** What a hidden amount reads as: the same width whatever the figure, so nothing can be guessed from it. */
export const HIDDEN_AMOUNT = '•••• €';
