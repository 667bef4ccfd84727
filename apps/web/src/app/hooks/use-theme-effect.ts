import { useEffect } from 'react';
import { applyTheme, onSystemThemeChange } from '@/lib/theme';
import { useSettingsStore } from '@/stores/settings-store';

/** Keeps <html> in step with the chosen theme, and with the OS while the choice is "system". */
export function useThemeEffect(): void {
  const theme = useSettingsStore((s) => s.theme);
  useEffect(() => {
    applyTheme(theme);
    if (theme !== 'system') return;
    return onSystemThemeChange(() => applyTheme('system'));
  }, [theme]);
}
