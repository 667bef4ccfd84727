import { RadioGroup } from 'radix-ui';
import { Check } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/cn';
import { useSettingsStore, type Theme } from '@/stores/settings-store';
import { usePageTitle } from '@/lib/use-page-title';

const options: { value: Theme; label: string; description: string }[] = [
  { value: 'light', label: 'Claro', description: 'Tonos cálidos y luminosos.' },
  { value: 'dark', label: 'Oscuro', description: 'Descansa la vista por la noche.' },
  { value: 'system', label: 'Sistema', description: 'Sigue la preferencia de tu dispositivo.' },
];

/** A miniature of the app in each theme, so the choice is visual, not only a word. */
function Preview({ value }: { value: Theme }) {
  const pane = (dark: boolean) => (
    <div className={cn('flex h-full flex-1 gap-1.5 p-2', dark ? 'bg-[#151412]' : 'bg-[#faf8f5]')}>
      <div className={cn('w-1/4 rounded-sm', dark ? 'bg-[#26231f]' : 'bg-[#efe9df]')} />
      <div className="grid flex-1 content-start gap-1.5">
        <div className={cn('h-2 w-3/4 rounded-sm', dark ? 'bg-[#403c36]' : 'bg-[#d9d2c6]')} />
        <div className={cn('h-6 rounded-sm', dark ? 'bg-[#1d1b18]' : 'bg-white')} />
        <div className={cn('h-2 w-1/3 rounded-sm', dark ? 'bg-[#6bbcb1]' : 'bg-[#2f6f6a]')} />
      </div>
    </div>
  );
  return (
    <div className="flex h-20 overflow-hidden rounded-md border" aria-hidden>
      {value === 'system' ? (
        <>
          {pane(false)}
          {pane(true)}
        </>
      ) : (
        pane(value === 'dark')
      )}
    </div>
  );
}

export function AppearanceSettingsRoute() {
  usePageTitle('Apariencia');
  const theme = useSettingsStore((s) => s.theme);
  const setTheme = useSettingsStore((s) => s.setTheme);

  return (
    <Card>
      <CardHeader>
        <CardTitle id="theme-label">Tema</CardTitle>
        <CardDescription>Elige cómo se ve Diván en este navegador.</CardDescription>
      </CardHeader>
      <CardContent>
        <RadioGroup.Root
          value={theme}
          onValueChange={(v) => setTheme(v as Theme)}
          aria-labelledby="theme-label"
          className="grid gap-3 sm:grid-cols-3"
        >
          {options.map((o) => (
            <RadioGroup.Item
              key={o.value}
              value={o.value}
              className="group relative grid cursor-pointer gap-3 rounded-lg border bg-card p-3 text-left transition-colors hover:bg-muted/50 data-[state=checked]:border-primary data-[state=checked]:ring-1 data-[state=checked]:ring-primary"
            >
              <Preview value={o.value} />
              <span className="grid gap-0.5">
                <span className="text-sm font-medium">{o.label}</span>
                <span className="text-[0.8125rem] text-muted-foreground">{o.description}</span>
              </span>
              <RadioGroup.Indicator className="absolute right-2 top-2 grid size-5 place-items-center rounded-full bg-primary text-primary-foreground">
                <Check className="size-3.5" aria-hidden />
              </RadioGroup.Indicator>
            </RadioGroup.Item>
          ))}
        </RadioGroup.Root>
      </CardContent>
    </Card>
  );
}

export { AppearanceSettingsRoute as Component };
