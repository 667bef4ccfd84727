type Mail = { id: string; to: string; subject: string; text: string; html: string; createdAt: string };

/** Waits for a mail to `to` matching `predicate` in the dev outbox (newest first). */
export async function waitForMail(baseUrl: string, to: string, predicate: (m: Mail) => boolean, timeoutMs = 15_000): Promise<Mail> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await fetch(`${baseUrl}/dev/mail/messages?to=${encodeURIComponent(to)}`);
    if (res.ok) {
      const mails = (await res.json()) as Mail[];
      const found = mails.find(predicate);
      if (found) return found;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no matching mail to ${to} within ${timeoutMs} ms`);
}

export function linkIn(mail: Mail, path: string): string {
  const match = new RegExp(`https?://[^\\s"<]+${path}/[A-Za-z0-9_-]+`).exec(mail.text);
  if (!match) throw new Error(`no ${path} link in mail "${mail.subject}"`);
  return match[0];
}

export function codeIn(mail: Mail): string {
  const match = /\b(\d{6})\b/.exec(mail.text);
  if (!match?.[1]) throw new Error(`no 6-digit code in mail "${mail.subject}"`);
  return match[1];
}

/** Every mail to `to` in the dev outbox so far (newest first): to tell a new one from those before. */
export async function mailsTo(baseUrl: string, to: string): Promise<Mail[]> {
  const res = await fetch(`${baseUrl}/dev/mail/messages?to=${encodeURIComponent(to)}`);
  if (!res.ok) throw new Error(`/dev/mail/messages: ${res.status}`);
  return (await res.json()) as Mail[];
}
