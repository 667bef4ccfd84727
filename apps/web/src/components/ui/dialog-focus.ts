import { useCallback, useRef } from 'react';

const FIELDS = [
  'input:not([type=hidden]):not([type=file]):not([disabled]):not([readonly])',
  'select:not([disabled])',
  'textarea:not([disabled]):not([readonly])',
  '[contenteditable="true"]',
].join(',');

/** The first field a person can type in, skipping hidden ones. */
export function firstFieldIn(root: HTMLElement): HTMLElement | null {
  for (const el of root.querySelectorAll<HTMLElement>(FIELDS)) {
    if (el.getClientRects().length > 0) return el;
  }
  return null;
}

/**
 * Focus for a Radix dialog: it opens on its first field (not on ✕, which comes first in the header), and
 * on close focus goes back to what opened it, also when it was opened by code rather than by a Radix
 * Trigger (Radix then knows no trigger and leaves focus on the page's body). Spread the handlers on
 * the Content. `firstField: false` keeps Radix's own choice (AlertDialog starts on «Cancelar»).
 */
export function useDialogFocus({ firstField = true }: { firstField?: boolean } = {}) {
  const opener = useRef<HTMLElement | null>(null);
  const onOpenAutoFocus = useCallback(
    (event: Event) => {
      // Radix asks before moving focus: what has it now opened the dialog.
      const active = document.activeElement;
      opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
      if (!firstField) return;
      const field = event.target instanceof HTMLElement ? firstFieldIn(event.target) : null;
      if (field) {
        event.preventDefault();
        field.focus({ preventScroll: true });
      }
    },
    [firstField],
  );
  const onCloseAutoFocus = useCallback((event: Event) => {
    const el = opener.current;
    opener.current = null;
    if (el?.isConnected) {
      event.preventDefault();
      el.focus({ preventScroll: true });
    }
  }, []);
  // A modal dialog closes by Esc, ✕ or its buttons, never because focus moved: Radix gives focus back
  // to the opener a tick after a dialog unmounts, and a dialog reopened within that tick (Esc, then
  // Enter at once on the same button) would see that focus as "outside" and close again.
  const onFocusOutside = useCallback((event: Event) => event.preventDefault(), []);
  return { onOpenAutoFocus, onCloseAutoFocus, onFocusOutside };
}
