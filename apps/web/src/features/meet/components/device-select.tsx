import { useId } from 'react';
import { ChevronDown } from 'lucide-react';
import { cn } from '@/lib/cn';

/** A camera or microphone picker: the platform's select, so phones show their own picker. */
export function DeviceSelect({
  label,
  devices,
  value,
  onChange,
  dark,
}: {
  label: string;
  devices: MediaDeviceInfo[];
  value: string | undefined;
  onChange: (id: string) => void;
  dark?: boolean;
}) {
  const id = useId();
  if (devices.length === 0) return null;
  return (
    <div className="grid gap-1.5">
      <label htmlFor={id} className={cn('text-sm font-medium', dark ? 'text-white/85' : 'text-foreground')}>
        {label}
      </label>
      <div className="relative">
        <select
          id={id}
          value={value ?? ''}
          onChange={(e) => onChange(e.target.value)}
          className={cn(
            'h-10 w-full cursor-pointer appearance-none truncate rounded-md border px-3 pr-9 text-[0.9375rem] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
            dark ? 'border-white/20 bg-white/10 text-white [&>option]:text-black' : 'border-input bg-card',
          )}
        >
          {devices.map((d, i) => (
            <option key={d.deviceId} value={d.deviceId}>
              {d.label || `${label} ${i + 1}`}
            </option>
          ))}
        </select>
        <ChevronDown
          className={cn(
            'pointer-events-none absolute right-3 top-1/2 size-4 -translate-y-1/2',
            dark ? 'text-white/70' : 'text-muted-foreground',
          )}
          aria-hidden
        />
      </div>
    </div>
  );
}
