import { Moon, Sun } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { LazyMenu } from '@/components/ui/lazy-menu';
import { useSettingsStore, type Theme } from '@/stores/settings-store';

export const themeLabels: Record<Theme, string> = { light: 'Claro', dark: 'Oscuro', system: 'Sistema' };

const loadItems = () => import('./theme-menu-items');

/** Light, dark or the system's; the menu's code loads on first use (see LazyMenu). */
export function ThemeMenu() {
  const theme = useSettingsStore((s) => s.theme);
  return (
    <LazyMenu
      load={loadItems}
      props={{}}
      trigger={
        <Button variant="ghost" size="icon" aria-label={`Tema: ${themeLabels[theme]}. Cambiar tema`}>
          <Sun className="dark:hidden" aria-hidden />
          <Moon className="hidden dark:block" aria-hidden />
        </Button>
      }
    />
  );
}
