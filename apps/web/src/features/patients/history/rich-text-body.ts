/** An imported Word file takes its first heading as the title: don't show it twice. */
export function withoutLeadingTitle(html: string, title: string): string {
  const match = /^\s*<h[1-3][^>]*>([\s\S]*?)<\/h[1-3]>/i.exec(html);
  if (!match) return html;
  const text = (match[1] ?? '')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text === title.trim() ? html.slice(match[0].length) : html;
}

/** One clinical note: long ones are folded so the history stays scannable. */
