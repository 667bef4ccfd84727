const pad = (n: number) => String(n).padStart(2, '0');

/** «9», «930», «9.30» or «9h30» as 'HH:mm' on the 24-hour clock, or null when it is not a time of day. */
export function normalizeHHmm(text: string): string | null {
  const m = /^(\d{1,2})(?::?(\d{2}))?$/.exec(text.trim().replace(/[.h]/i, ':'));
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2] ?? '0');
  return h > 23 || min > 59 ? null : `${pad(h)}:${pad(min)}`;
}
