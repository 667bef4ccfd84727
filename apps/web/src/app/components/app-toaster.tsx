import { Toaster } from 'sonner';
import { TOAST_DURATION_MS, TOAST_VISIBLE } from '@divan/core';
import { useSettingsStore } from '@/stores/settings-store';

/** Spec §9: 4000 ms, 3 visible, 14 px gap, default width. Loaded with the first toast (see lib/toast). */
export function AppToaster() {
  const theme = useSettingsStore((s) => s.theme);
  return (
    <Toaster
      theme={theme}
      duration={TOAST_DURATION_MS}
      visibleToasts={TOAST_VISIBLE}
      gap={14}
      position="top-right"
      closeButton
      toastOptions={{ closeButtonAriaLabel: 'Cerrar aviso' }}
      containerAriaLabel="Notificaciones"
    />
  );
}
