import { useEffect, useId, useRef, useState } from 'react';
import { Eraser, PenLine, Type } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/cn';

/**
 * A signature as a PNG data URL: drawn with the pointer on a small canvas, or typed (the name written
 * in a handwriting-like font and drawn into the same PNG) for keyboard users. A plain canvas for now:
 * `signature_pad` (the architecture's choice) is not installed yet.
 */
type Props = {
  value: string | null;
  onChange: (dataUrl: string | null) => void;
  /** Labels the pad for screen readers (e.g. «Firma del terapeuta»). */
  label: string;
  invalid?: boolean;
  describedBy?: string;
};

const PAD_HEIGHT = 160;
const INK = '#1f2937';

/** The typed name drawn as a signature: a PNG of the text in an italic script font, transparent around it. */
export function typedSignature(name: string): string | null {
  const text = name.trim();
  if (!text) return null;
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  const font = 'italic 44px "Segoe Script", "Brush Script MT", "URW Chancery L", cursive';
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

function DrawPad({ onChange, label, invalid, describedBy }: Omit<Props, 'value'>) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);
  const inked = useRef(false);
  const [empty, setEmpty] = useState(true);

  // The canvas at the screen's density, so the line is sharp on a phone.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const ratio = Math.min(window.devicePixelRatio || 1, 3);
    canvas.width = Math.round(canvas.offsetWidth * ratio);
    canvas.height = Math.round(PAD_HEIGHT * ratio);
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.scale(ratio, ratio);
    ctx.lineWidth = 2.2;
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    ctx.strokeStyle = INK;
  }, []);

  const point = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };
  const ctx = () => canvasRef.current?.getContext('2d') ?? null;

  const clear = () => {
    const canvas = canvasRef.current;
    const c = ctx();
    if (!canvas || !c) return;
    c.save();
    c.setTransform(1, 0, 0, 1, 0, 0);
    c.clearRect(0, 0, canvas.width, canvas.height);
    c.restore();
    inked.current = false;
    setEmpty(true);
    onChange(null);
  };

  return (
    <div className="grid gap-2">
      <canvas
        ref={canvasRef}
        role="img"
        aria-label={`${label}: dibuja con el ratón o el dedo`}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        data-testid="signature-pad"
        className={cn('h-40 w-full touch-none rounded-md border border-input bg-white shadow-xs', invalid && 'border-destructive')}
        style={{ height: PAD_HEIGHT }}
        onPointerDown={(e) => {
          const c = ctx();
          if (!c) return;
          e.currentTarget.setPointerCapture(e.pointerId);
          drawing.current = true;
          const p = point(e);
          c.beginPath();
          c.moveTo(p.x, p.y);
          c.lineTo(p.x + 0.1, p.y + 0.1);
          c.stroke();
          inked.current = true;
        }}
        onPointerMove={(e) => {
          if (!drawing.current) return;
          const c = ctx();
          if (!c) return;
          const p = point(e);
          c.lineTo(p.x, p.y);
          c.stroke();
        }}
        onPointerUp={() => {
          if (!drawing.current) return;
          drawing.current = false;
          if (inked.current && canvasRef.current) {
            setEmpty(false);
            onChange(canvasRef.current.toDataURL('image/png'));
          }
        }}
      />
      <div className="flex items-center justify-between gap-2 text-[0.8125rem] text-muted-foreground">
        <span>{empty ? 'Firma dentro del recuadro.' : 'Firma dibujada.'}</span>
        <Button type="button" variant="ghost" size="sm" onClick={clear} disabled={empty}>
          <Eraser aria-hidden /> Borrar
        </Button>
      </div>
    </div>
  );
}

function TypePad({ onChange, label, invalid, describedBy }: Omit<Props, 'value'>) {
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
          onChange(typedSignature(e.target.value));
        }}
      />
      {name.trim() ? (
        <p aria-label={`${label}: vista previa`} className="rounded-md border bg-white px-4 py-3 text-3xl italic text-gray-800" style={{ fontFamily: '"Segoe Script", "Brush Script MT", "URW Chancery L", cursive' }}>
          {name}
        </p>
      ) : null}
    </div>
  );
}

export function SignatureInput({ value, onChange, label, invalid, describedBy }: Props) {
  const [mode, setMode] = useState<'draw' | 'type'>('draw');
  const [replacing, setReplacing] = useState(!value);

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
              onChange(null);
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
      <div role="radiogroup" aria-label="Cómo firmar" className="inline-flex w-fit rounded-md border bg-muted/40 p-0.5">
        {(
          [
            ['draw', 'Dibujar', PenLine],
            ['type', 'Escribir', Type],
          ] as const
        ).map(([m, text, Icon]) => (
          <button
            key={m}
            type="button"
            role="radio"
            aria-checked={mode === m}
            onClick={() => {
              setMode(m);
              onChange(null);
            }}
            className={cn('inline-flex items-center gap-1.5 rounded px-3 py-1.5 text-sm [&_svg]:size-4', mode === m ? 'bg-card font-medium shadow-xs' : 'text-muted-foreground hover:text-foreground')}
          >
            <Icon aria-hidden /> {text}
          </button>
        ))}
      </div>
      {mode === 'draw' ? <DrawPad onChange={onChange} label={label} invalid={invalid} describedBy={describedBy} /> : <TypePad onChange={onChange} label={label} invalid={invalid} describedBy={describedBy} />}
    </div>
  );
}
