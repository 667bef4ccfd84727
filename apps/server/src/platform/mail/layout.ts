/** The one layout of every mail Diván sends: HTML and plain text from the same blocks, in Spanish. */
/** A file sent with a mail: bytes as base64 (the outbox keeps the mail as JSON); nodemailer's own fields. */
export type MailAttachment = { filename: string; contentType: string; content: string; encoding: 'base64' };
export type Mail = {
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: MailAttachment[];
  /** Where an answer goes instead of the sender (nodemailer's field): a comment to the operator answers its author. */
  replyTo?: { name: string; address: string };
};

export type MailBrand = {
  /** Who the mail comes from, as the reader knows them: the workspace or the therapist (default Diván). */
  name: string;
  /** An absolute URL of a square logo (a public image). */
  logoUrl?: string | null;
};

export type MailBlock =
  | { kind: 'p'; text: string }
  | { kind: 'button'; url: string; label: string }
  /** A one-time code, shown large. */
  | { kind: 'code'; code: string }
  | { kind: 'note'; text: string };

export type MailContent = {
  to: string;
  subject: string;
  /** "Hola, Lola:" */
  greeting?: string;
  blocks: MailBlock[];
  brand?: MailBrand;
  /** The closing line, e.g. "Si no has sido tú, ignora este mensaje." */
  footer?: string;
};

const PRIMARY = '#2f6f68';
const TEXT = '#1f2a2a';
const MUTED = '#6b7575';

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function renderMail(c: MailContent): Mail {
  const brand = c.brand ?? { name: 'Diván' };
  return { to: c.to, subject: c.subject, text: renderText(c, brand), html: renderHtml(c, brand) };
}

function renderText(c: MailContent, brand: MailBrand): string {
  const lines: string[] = [];
  if (c.greeting) lines.push(c.greeting, '');
  for (const b of c.blocks) {
    if (b.kind === 'p' || b.kind === 'note') lines.push(b.text, '');
    else if (b.kind === 'button') lines.push(`${b.label}: ${b.url}`, '');
    else lines.push(b.code, '');
  }
  if (c.footer) lines.push(c.footer, '');
  lines.push(brand.name === 'Diván' ? '— Diván' : `— ${brand.name}, con Diván`);
  return lines.join('\n');
}

function renderHtml(c: MailContent, brand: MailBrand): string {
  const logo = brand.logoUrl
    ? `<img src="${escapeHtml(brand.logoUrl)}" alt="" width="40" height="40" style="border-radius:8px;vertical-align:middle;margin-right:10px">`
    : '';
  const blocks = c.blocks
    .map((b) => {
      if (b.kind === 'p') return `<p style="margin:0 0 14px">${escapeHtml(b.text)}</p>`;
      if (b.kind === 'note') return `<p style="margin:0 0 14px;color:${MUTED};font-size:13px">${escapeHtml(b.text)}</p>`;
      if (b.kind === 'code')
        return `<p style="margin:8px 0 18px;font-size:32px;letter-spacing:8px;font-weight:bold;color:${TEXT}">${escapeHtml(b.code)}</p>`;
      const url = escapeHtml(b.url);
      return `<p style="margin:18px 0"><a href="${url}" style="display:inline-block;background:${PRIMARY};color:#fff;padding:11px 20px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(b.label)}</a></p><p style="margin:0 0 14px;font-size:13px;color:${MUTED}">Si el botón no funciona, copia este enlace en tu navegador:<br><span style="word-break:break-all">${url}</span></p>`;
    })
    .join('');
  const footer = c.footer ? `<p style="margin:20px 0 0;color:${MUTED};font-size:13px">${escapeHtml(c.footer)}</p>` : '';
  const sentBy = brand.name === 'Diván' ? 'Diván · gestión de consulta' : `${escapeHtml(brand.name)} · enviado con Diván`;
  return `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(c.subject)}</title></head><body style="margin:0;background:#faf8f5;padding:24px 12px"><div style="font-family:system-ui,-apple-system,'Segoe UI',sans-serif;max-width:520px;margin:auto;background:#fff;border:1px solid #e4ded6;border-radius:12px;padding:24px 28px;color:${TEXT};line-height:1.5"><div style="margin-bottom:18px;font-size:18px;font-weight:700;color:${PRIMARY}">${logo}${escapeHtml(brand.name)}</div>${c.greeting ? `<p style="margin:0 0 14px;font-weight:600">${escapeHtml(c.greeting)}</p>` : ''}${blocks}${footer}</div><p style="text-align:center;color:${MUTED};font-size:12px;margin:14px 0 0">${sentBy}</p></body></html>`;
}
