const KEY = 'divan:meet-client';

/**
 * This tab's id in the room: kept for the tab's life (sessionStorage), so a reload or a reconnection
 * is the same participant (no second waiting room), while another tab or device is someone else.
 */
export function meetClientId(): string {
  try {
    const existing = sessionStorage.getItem(KEY);
    if (existing && /^[\w-]{8,64}$/.test(existing)) return existing;
    const id = crypto.randomUUID();
    sessionStorage.setItem(KEY, id);
    return id;
  } catch {
    return crypto.randomUUID();
  }
}
