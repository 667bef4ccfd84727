/**
 * Spanish tax ids: DNI (8 digits + letter), NIE (X/Y/Z + 7 digits + letter) and CIF (letter + 7
 * digits + control). The control character is checked, so a typo is caught at the form.
 */
const LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

export function normalizeTaxId(id: string): string {
  return id.replace(/[\s.-]/g, '').toUpperCase();
}

export function isValidSpanishTaxId(raw: string): boolean {
  const id = normalizeTaxId(raw);
  if (/^\d{8}[A-Z]$/.test(id)) return LETTERS[Number(id.slice(0, 8)) % 23] === id[8];
  if (/^[XYZ]\d{7}[A-Z]$/.test(id)) {
    const n = Number('XYZ'.indexOf(id[0]!) + id.slice(1, 8));
    return LETTERS[n % 23] === id[8];
  }
  if (/^[ABCDEFGHJNPQRSUVW]\d{7}[0-9A-J]$/.test(id)) return cifControlOk(id);
  return false;
}

function cifControlOk(id: string): boolean {
  const digits = id.slice(1, 8);
  let sum = 0;
  for (let i = 0; i < 7; i++) {
    const d = Number(digits[i]);
    if (i % 2 === 0) {
      const x = d * 2;
      sum += Math.floor(x / 10) + (x % 10);
    } else sum += d;
  }
  const control = (10 - (sum % 10)) % 10;
  const last = id[8]!;
  return last === String(control) || last === 'JABCDEFGHI'[control];
}
