import { Alert } from '@/components/ui/alert';
import { isApiError } from '@/lib/api-client';
import { messageOf } from '@/lib/error-message';

/** "body.lines.0.description" → "Línea 1"; other paths by their Spanish name. */
function where(path: string): string {
  const p = path.replace(/^body\./, '');
  const line = /^lines\.(\d+)/.exec(p);
  if (line) return `Línea ${Number(line[1]) + 1}`;
  if (p.startsWith('buyer')) return 'Pagador';
  if (p === 'footer') return 'Pie de factura';
  return '';
}

/** The server's refusal in Spanish, with the fields it names (a line, the payer) listed under it. */
export function ServerError({ error }: { error: unknown }) {
  const fields = isApiError(error) ? error.fields : [];
  return (
    <Alert variant="error">
      <p>{messageOf(error)}</p>
      {fields.length ? (
        <ul className="mt-1 list-disc pl-5">
          {fields.map((f) => (
            <li key={`${f.path}:${f.message}`}>{[where(f.path), f.message].filter(Boolean).join(': ')}</li>
          ))}
        </ul>
      ) : null}
    </Alert>
  );
}
