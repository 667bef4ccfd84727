import { formatDistanceToNow, parseISO } from 'date-fns';
import { es } from 'date-fns/locale/es';
import { formatInteger } from '@divan/core';

type Named = { firstName: string; lastName: string | null };
export const patientName = (p: Named) => [p.firstName, p.lastName].filter(Boolean).join(' ');

/** Sizes as people read them: "820 KB", "2,4 MB". */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const kb = bytes / 1024;
  if (kb < 1024) return `${formatInteger(Math.max(1, Math.round(kb)))} KB`;
  return `${(kb / 1024).toLocaleString('es-ES', { maximumFractionDigits: 1 })} MB`;
}

/** "1.234": thousands grouped from four digits (the es-ES default waits for five). */
export const formatCount = (n: number) => formatInteger(n);

/** "hace menos de un minuto", "hace 3 días". */
export const timeAgo = (iso: string) => formatDistanceToNow(parseISO(iso), { locale: es, addSuffix: true });

/** Label of a vocabulary value, or the raw value when the vocabulary doesn't know it. */
export function labelOf(vocab: { labels: Record<string, string> }, value: string | null | undefined): string | null {
  if (!value) return null;
  return vocab.labels[value] ?? value;
}

/** Spanish plural for counters: "1 entrada", "3 entradas" (shared by the whole app). */
export { plural } from '@/lib/format';
