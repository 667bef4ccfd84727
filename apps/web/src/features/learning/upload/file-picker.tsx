import { useEffect, useRef, type ChangeEvent, type ComponentProps } from 'react';
import { FileVideo, ImageUp } from 'lucide-react';
import { buttonVariants } from '@/components/ui/button';
import { cn } from '@/lib/cn';

const formatBytes = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 1 });

/** A file's size as Spanish people read it: «850 KB», «12,4 MB», «1,2 GB». */
export function formatFileSize(bytes: number): string {
  if (bytes < 1000) return `${formatBytes.format(bytes)} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${formatBytes.format(value)} ${units[unit]}`;
}

type Props = Omit<ComponentProps<'input'>, 'type' | 'value' | 'onChange' | 'children'> & {
  /** The file chosen (the caller keeps it), or null. */
  file: File | null;
  onChange: (e: ChangeEvent<HTMLInputElement>) => void;
  /** «Elegir vídeo» / «Elegir icono»; «Cambiar …» once one is chosen. */
  chooseLabel: string;
  changeLabel: string;
  kind?: 'video' | 'image';
};

/**
 * A file field in Spanish: the browser's own input is visually hidden but stays the focusable control (its
 * label is the Field's, Tab reaches it, Space or Enter opens the picker); a button-looking label opens it by
 * pointer, and the chosen file's name and size are said beside it (Chromium's «Choose File» never shows).
 * `id` and `aria-*` from the Field land on the input.
 */
export function FilePicker({ file, onChange, chooseLabel, changeLabel, kind = 'video', className, disabled, id, ...input }: Props) {
  const ref = useRef<HTMLInputElement>(null);
  // The caller dropped its file (saved, refused): the input forgets it too, so the same file can be chosen again.
  useEffect(() => {
    if (!file && ref.current) ref.current.value = '';
  }, [file]);
  const Icon = kind === 'video' ? FileVideo : ImageUp;
  return (
    <div className={cn('flex min-w-0 flex-wrap items-center gap-x-3 gap-y-2', className)}>
      <input ref={ref} id={id} type="file" className="peer sr-only" disabled={disabled} onChange={onChange} {...input} />
      {/* The hidden input is named by the Field's label; this one only takes the pointer's click. */}
      <label
        htmlFor={id}
        aria-hidden="true"
        className={cn(
          buttonVariants({ variant: 'outline', size: 'sm' }),
          'peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-ring',
          disabled && 'pointer-events-none opacity-55',
        )}
      >
        <Icon aria-hidden /> {file ? changeLabel : chooseLabel}
      </label>
      <span className="min-w-0 max-w-full text-[0.8125rem] text-muted-foreground" data-testid="file-picker-choice" aria-live="polite">
        {file ? (
          <>
            <span className="break-all font-medium text-foreground">{file.name}</span>
            <span className="tabular-nums"> · {formatFileSize(file.size)}</span>
          </>
        ) : (
          'Ningún archivo elegido'
        )}
      </span>
    </div>
  );
}
