import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import SignaturePad from 'signature_pad';
import { Eraser, PenLine, Type } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/cn';

/**
 * A signature as a PNG data URL: drawn with the finger, pen or mouse on a `signature_pad` canvas
 * (smooth, pressure-like strokes), or typed (the name written in a handwriting-like font and drawn
 * into the same PNG) for keyboard users.
 */
type Props = {
  value: string | null;
  onChange: (dataUrl: string | null) => void;
  /** Labels the pad for screen readers (e.g. «Firma del terapeuta»). */
  label: string;
  invalid?: boolean;
  describedBy?: string;
  /** Also told how the signature was made: the signing page sends a typed one as the name itself. */
  onSignature?: (signature: SignatureValue | null) => void;
};

export type SignatureValue = { kind: 'drawn'; png: string } | { kind: 'typed'; name: string; png: string };
type Mode = 'draw' | 'type';

const PAD_HEIGHT = 160;
const INK = '#1f2937';
/** Core refuses images over 4000 px a side (SIGNATURE_MAX_SIDE): a wide pad on a dense screen stays under it. */
const MAX_CANVAS_SIDE = 3600;
const SCRIPT_FONT = '"Segoe Script", "Brush Script MT", "URW Chancery L", cursive';

/** The typed name drawn as a signature: a PNG of the text in an italic script font, transparent around it. */
export function typedSignature(name: string): string | null {
  const text = name.trim();
  if (!text) return null;
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  const font = `italic 44px ${SCRIPT_FONT}`;
  ctx.font = font;
  const width = Math.min(1200, Math.ceil(ctx.measureText(text).width) + 40);
  canvas.width = width;
  canvas.height = 90;
  ctx.font = font;
  ctx.fillStyle = INK;
  ctx.textBaseline = 'middle';
  ctx.fillText(text, 20, 45, width - 40);
  return canvas.toDataURL('image/png');
}

function DrawPad({
  onDrawn,
  label,
  invalid,
  describedBy,
}: {
  onDrawn: (png: string | null) => void;
  label: string;
  invalid?: boolean;
  describedBy?: string;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);
  const onDrawnRef = useRef(onDrawn);
  const [empty, setEmpty] = useState(true);

  useEffect(() => {
    onDrawnRef.current = onDrawn;
  }, [onDrawn]);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const pad = new SignaturePad(canvas, { penColor: INK, minWidth: 0.9, maxWidth: 2.8, velocityFilterWeight: 0.6 });
    padRef.current = pad;
    // The canvas at the screen's density, so the line is sharp on a phone; a new width (a phone turned)
    // redraws the strokes rather than losing them.
    let width = 0;
    const fit = () => {
      const w = canvas.offsetWidth;
      if (!w || w === width) return;
      width = w;
      const ratio = Math.min(window.devicePixelRatio || 1, 3, MAX_CANVAS_SIDE / w);
      canvas.width = Math.round(w * ratio);
      canvas.height = Math.round(PAD_HEIGHT * ratio);
      canvas.getContext('2d')?.scale(ratio, ratio);
      pad.redraw();
      if (!pad.isEmpty()) onDrawnRef.current(pad.toDataURL('image/png'));
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(canvas);
    const stroked = () => {
      setEmpty(pad.isEmpty());
      if (!pad.isEmpty()) onDrawnRef.current(pad.toDataURL('image/png'));
    };
    pad.addEventListener('endStroke', stroked);
    return () => {
      observer.disconnect();
      pad.removeEventListener('endStroke', stroked);
      pad.off();
      padRef.current = null;
    };
  }, []);

  const clear = () => {
    padRef.current?.clear();
    setEmpty(true);
    onDrawn(null);
  };

  return (
    <div className="grid gap-2">
      <div className="relative">
        <canvas
          ref={canvasRef}
          role="img"
          aria-label={`${label}: dibuja con el ratón o el dedo`}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          data-testid="signature-pad"
          className={cn('block w-full touch-none rounded-md border border-input bg-white shadow-xs', invalid && 'border-destructive')}
          style={{ height: PAD_HEIGHT }}
        />
        {/* A baseline to sign on, under the strokes; not part of the image. */}
        <span aria-hidden className="pointer-events-none absolute inset-x-6 bottom-9 border-b border-dashed border-gray-300" />
      </div>
      <div className="flex items-center justify-between gap-2 text-[0.8125rem] text-muted-foreground">
        <span aria-live="polite">{empty ? 'Firma dentro del recuadro.' : 'Firma dibujada.'}</span>
        <Button type="button" variant="ghost" size="sm" onClick={clear} disabled={empty}>
          <Eraser aria-hidden /> Borrar
        </Button>
      </div>
    </div>
  );
}

function TypePad({
  onTyped,
  label,
  invalid,
  describedBy,
}: {
  onTyped: (name: string) => void;
  label: string;
  invalid?: boolean;
  describedBy?: string;
}) {
  const [name, setName] = useState('');
  const id = useId();
  return (
    <div className="grid gap-2">
      <label htmlFor={id} className="text-sm font-medium">
        Escribe tu nombre como firma
      </label>
      <Input
        id={id}
        value={name}
        maxLength={80}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        autoComplete="name"
        onChange={(e) => {
          setName(e.target.value);
          onTyped(e.target.value);
        }}
      />
      {name.trim() ? (
        <p
          aria-label={`${label}: vista previa`}
          className="overflow-hidden text-ellipsis whitespace-nowrap rounded-md border bg-white px-4 py-3 text-3xl italic text-gray-800"
          style={{ fontFamily: SCRIPT_FONT }}
        >
          {name}
        </p>
      ) : null}
    </div>
  );
}

const MODES = [
  ['draw', 'Dibujar', PenLine],
  ['type', 'Escribir', Type],
] as const;

export function SignatureInput({ value, onChange, label, invalid, describedBy, onSignature }: Props) {
  const [mode, setMode] = useState<Mode>('draw');
  const [replacing, setReplacing] = useState(!value);
  const radios = useRef<Record<Mode, HTMLButtonElement | null>>({ draw: null, type: null });

  const set = (signature: SignatureValue | null) => {
    onChange(signature?.png ?? null);
    onSignature?.(signature);
  };
  const choose = (next: Mode) => {
    if (next === mode) return;
    setMode(next);
    set(null);
  };
  // A radio group: the arrows move between the two ways (and choose), Tab leaves the group.
  const onArrows = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].includes(e.key)) return;
    e.preventDefault();
    const next: Mode = mode === 'draw' ? 'type' : 'draw';
    choose(next);
    radios.current[next]?.focus();
  };

  if (value && !replacing) {
    return (
      <div className="grid gap-2">
        <img src={value} alt={label} className="h-24 w-full max-w-sm rounded-md border bg-white object-contain p-2" />
        <div>
          <Button
            type="button"
            variant="outline"
            size="sm"
            onClick={() => {
              setReplacing(true);
              set(null);
            }}
          >
            <PenLine aria-hidden /> Cambiar firma
          </Button>
        </div>
      </div>
    );
  }
  return (
    <div className="grid gap-3">
      <div
        role="radiogroup"
        aria-label="Cómo firmar"
        onKeyDown={onArrows}
        className="inline-flex w-fit rounded-md border bg-muted/40 p-0.5"
      >
        {MODES.map(([m, text, Icon]) => (
          <button
            key={m}
            ref={(el) => {
              radios.current[m] = el;
            }}
            type="button"
            role="radio"
            aria-checked={mode === m}
            tabIndex={mode === m ? 0 : -1}
            onClick={() => choose(m)}
            className={cn(
              'inline-flex min-h-9 items-center gap-1.5 rounded px-3.5 py-1.5 text-sm [&_svg]:size-4',
              mode === m ? 'bg-card font-medium shadow-xs' : 'text-muted-foreground hover:text-foreground',
            )}
          >
            <Icon aria-hidden /> {text}
          </button>
        ))}
      </div>
      {mode === 'draw' ? (
        <DrawPad onDrawn={(png) => set(png ? { kind: 'drawn', png } : null)} label={label} invalid={invalid} describedBy={describedBy} />
      ) : (
        <TypePad
          onTyped={(name) => {
            const png = typedSignature(name);
            set(png ? { kind: 'typed', name, png } : null);
          }}
          label={label}
          invalid={invalid}
          describedBy={describedBy}
        />
      )}
    </div>
  );
}
