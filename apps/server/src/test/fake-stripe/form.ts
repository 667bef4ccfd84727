// Test support: Stripe's request encoding, application/x-www-form-urlencoded with bracket notation
// (`metadata[invoiceId]=…`, `line_items[0][price_data][unit_amount]=…`, `expand[]=…`).

export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type Form = { [key: string]: FormValue };

/** `a[b][0][c]` → ['a', 'b', '0', 'c']; `a[]` → ['a', '']. */
function keyPath(key: string): string[] {
  const first = key.indexOf('[');
  if (first < 0) return [key];
  const path = [key.slice(0, first)];
  for (const m of key.slice(first).matchAll(/\[([^\]]*)\]/g)) path.push(m[1]!);
  return path;
}

/** Objects whose keys are 0…n-1 become arrays, as Stripe reads them. */
function arrays(value: FormValue): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const converted = Object.fromEntries(keys.map((k) => [k, arrays(value[k]!)]));
  const indexed = keys.length > 0 && keys.every((k, i) => k === String(i));
  return indexed ? keys.map((k) => converted[k]!) : converted;
}

/** Parses a form body or a query string into nested objects and arrays (every leaf a string). */
export function parseForm(text: string): Form {
  const root: Record<string, FormValue> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = keyPath(key);
    let node: Record<string, FormValue> = root;
    for (let i = 0; i < path.length; i++) {
      let segment = path[i]!;
      if (segment === '') segment = String(Object.keys(node).length);
      if (i === path.length - 1) {
        node[segment] = value;
      } else {
        const next = node[segment];
        if (next === undefined || typeof next === 'string' || Array.isArray(next)) node[segment] = {};
        node = node[segment] as Record<string, FormValue>;
      }
    }
  }
  return arrays(root) as Form;
}

/** The same parameters give the same string whatever their order (idempotency's comparison). */
export function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}

// Readers of one parameter, as Stripe validates them.

export function str(form: Form, key: string): string | null {
  const v = form[key];
  return typeof v === 'string' && v !== '' ? v : null;
}

export function obj(form: Form, key: string): Form {
  const v = form[key];
  return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
}

export function list(form: Form, key: string): FormValue[] {
  const v = form[key];
  return Array.isArray(v) ? v : v === undefined ? [] : [v];
}

/** Metadata as Stripe keeps it: string values only. */
export function metadata(form: Form, key = 'metadata'): Record<string, string> {
  return Object.fromEntries(Object.entries(obj(form, key)).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

export function bool(form: Form, key: string): boolean {
  return form[key] === 'true';
}
