/**
 * CuotaTotal and ImporteTotal of a RegistroAlta, as the AEAT's "Diseño de registro" of VERI*FACTU
 * defines them: CuotaTotal is the sum of the cuotas of the breakdown (CuotaRepercutida, plus any
 * CuotaRecargoEquivalencia, which Diván never charges); ImporteTotal is the sum of the taxable bases
 * (BaseImponibleOimporteNoSujeto) and those cuotas. The income-tax withholding (IRPF) is part of
 * neither: it changes what the buyer pays the seller, not the amount of the operation, and the AEAT
 * flags a record whose ImporteTotal strays from its breakdown. The QR's `importe` is ImporteTotal.
 */
export function registrationAmounts(lines: readonly { base: number; vat: number }[]): { vatTotalCents: number; totalCents: number } {
  let base = 0;
  let vat = 0;
  for (const l of lines) {
    if (!Number.isSafeInteger(l.base) || !Number.isSafeInteger(l.vat)) throw new RangeError('A line’s base and VAT are integer cents');
    base += l.base;
    vat += l.vat;
  }
  return { vatTotalCents: vat, totalCents: base + vat };
}
