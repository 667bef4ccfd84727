import type { ChatMessage, ChatMessagesPage } from '@divan/core';

/**
 * Everything since `from` (the newest cursor on screen), oldest first, following the server's `next`
 * page after page (`after` pages): what a conversation missed while its socket was down. Stops after
 * `maxPages`; the next reconnect goes on from there.
 */
export async function catchUp(
  from: string | null,
  fetchAfter: (after: string) => Promise<ChatMessagesPage>,
  maxPages = 20,
): Promise<ChatMessage[]> {
  const out: ChatMessage[] = [];
  let after = from;
  for (let i = 0; after && i < maxPages; i++) {
    const page = await fetchAfter(after);
    out.push(...page.items);
    after = page.next;
  }
  return out;
}
