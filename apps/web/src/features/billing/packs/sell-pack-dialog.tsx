import { useState } from 'react';
import { centsToDecimalText, eurosToCents, isIsoDay, PACK_SESSIONS_MAX } from '@divan/core';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DayInput } from '@/components/ui/day-input';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { formatCurrency } from '@/lib/format';
import type { SellPack } from './packs-api';

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSell: (body: SellPack) => Promise<unknown>;
  defaultPriceCents: number | null;
};

/** «Vender bono»: N sessions at one price; its invoice is issued at once (then charged or marked paid like any other). */
export function SellPackDialog({ open, onOpenChange, onSell, defaultPriceCents }: Props) {
  const [sessions, setSessions] = useState('5');
  const [price, setPrice] = useState(defaultPriceCents ? centsToDecimalText(defaultPriceCents * 5) : '');
  const [expires, setExpires] = useState('');
  const [name, setName] = useState('');
  const n = Number(sessions);
  const cents = eurosToCents(price);
  const sessionsOk = Number.isInteger(n) && n >= 1 && n <= PACK_SESSIONS_MAX;
  const priceOk = cents !== null && cents > 0;
  const expiresOk = expires === '' || isIsoDay(expires);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      destructive={false}
      title="Vender un bono de sesiones"
      description="Se emite ahora su factura, por el precio del bono. Las sesiones realizadas con este terapeuta lo irán consumiendo y no se facturarán de nuevo."
      confirmLabel={priceOk && sessionsOk ? `Emitir factura de ${formatCurrency(cents)}` : 'Emitir factura'}
      canConfirm={sessionsOk && priceOk && expiresOk}
      onConfirm={() =>
        onSell({ sessionsTotal: n, priceCents: cents!, expiresOn: expires || null, ...(name.trim() ? { name: name.trim() } : {}) })
      }
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Sesiones" error={sessions && !sessionsOk ? `Entre 1 y ${PACK_SESSIONS_MAX}.` : undefined}>
          <Input inputMode="numeric" value={sessions} onChange={(e) => setSessions(e.target.value.replace(/\D/g, ''))} />
        </Field>
        <Field
          label="Precio del bono (€)"
          error={price && !priceOk ? 'Escribe un importe, por ejemplo 250,00.' : undefined}
          hint={priceOk && sessionsOk ? `${formatCurrency(Math.round(cents / n))} por sesión` : undefined}
        >
          <Input inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} placeholder="250,00" />
        </Field>
        <Field label="Caduca el (opcional)" error={expiresOk ? undefined : 'Escribe la fecha como DD/MM/AAAA.'}>
          <DayInput value={expires} onChange={setExpires} />
        </Field>
        <Field label="Nombre (opcional)" hint={`Por defecto «Bono de ${sessionsOk ? n : 'N'} sesiones».`}>
          <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={120} />
        </Field>
      </div>
    </ConfirmDialog>
  );
}
