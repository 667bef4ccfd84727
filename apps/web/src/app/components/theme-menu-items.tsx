import { Monitor, Moon, Sun } from 'lucide-react';
import {
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
} from '@/components/ui/dropdown-menu';
import { useSettingsStore, type Theme } from '@/stores/settings-store';
import { themeLabels } from './theme-menu';

const icons = { light: Sun, dark: Moon, system: Monitor };

/** The theme menu's items, loaded with the menu (see ThemeMenu). */
export default function ThemeMenuItems() {
  const theme = useSettingsStore((s) => s.theme);
  const setTheme = useSettingsStore((s) => s.setTheme);
  return (
    <DropdownMenuContent align="end">
      <DropdownMenuLabel className="text-xs font-medium text-muted-foreground">Tema</DropdownMenuLabel>
      <DropdownMenuSeparator />
      <DropdownMenuRadioGroup value={theme} onValueChange={(v) => setTheme(v as Theme)}>
        {(Object.keys(themeLabels) as Theme[]).map((t) => {
          const Icon = icons[t];
          return (
            <DropdownMenuRadioItem key={t} value={t}>
              <Icon aria-hidden /> {themeLabels[t]}
            </DropdownMenuRadioItem>
          );
        })}
      </DropdownMenuRadioGroup>
    </DropdownMenuContent>
  );
}
