import type { LucideIcon } from 'lucide-react';
import { cn } from '@/lib/cn';

/** A camera or microphone switch: a round button with its state said (aria-pressed) and shown (red when off). */
export function RoundToggle({
  on,
  onClick,
  label,
  onIcon: On,
  offIcon: Off,
  disabled,
}: {
  on: boolean;
  onClick: () => void;
  label: string;
  onIcon: LucideIcon;
  offIcon: LucideIcon;
  disabled?: boolean;
}) {
  const Icon = on ? On : Off;
  return (
    <button
      type="button"
      aria-pressed={on}
      aria-label={label}
      title={`${label}: ${on ? 'activado' : 'desactivado'}`}
      onClick={onClick}
      disabled={disabled}
      className={cn(
        'grid size-12 cursor-pointer place-items-center rounded-full shadow-md transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white disabled:cursor-not-allowed disabled:opacity-50',
        on ? 'bg-white/15 text-white backdrop-blur hover:bg-white/25' : 'bg-red-600 text-white hover:bg-red-700',
      )}
    >
      <Icon className="size-5" aria-hidden />
    </button>
  );
}
