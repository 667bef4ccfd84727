import type { Calendar } from '@event-calendar/core';

/** What toGridEvents puts on each session's event. */
export type SessionProps = { label: string; badges: string[]; sub: string; canceled: boolean; done: boolean };
/** A Google busy block: nothing but the fact (no title, no detail ever reaches the browser). */
export type BusyProps = { busy: true };

const BADGE_TEXT: Record<string, string> = { online: 'Online', series: 'Serie', note: 'Sin nota' };

const el = (tag: string, className: string, text?: string) => {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

/**
 * The grid also draws events of its own through this function: the hour under the mouse ('pointer')
 * and the slot being selected ('preview'), with empty `extendedProps`. They are not sessions.
 */
const isSession = (props: Record<string, unknown>): props is SessionProps => Array.isArray(props.badges);

/**
 * The event's box, built as DOM (no HTML strings): the patient first, then the time and where, then
 * small signs (online, series, note missing). A month cell gets one line. Its accessible name is what
 * is visible, then (for screen readers only) the day and how it stands. The grid's own events show
 * their time only.
 */
export function eventContent(info: Calendar.EventContentInfo): Calendar.Content {
  const p = info.event.extendedProps;
  if (p.busy === true) return { domNodes: [el('div', 'dv-busy-label', 'Ocupado en Google')] };
  if (!isSession(p)) return { domNodes: [el('div', 'dv-event dv-event-time', info.timeText)] };
  // A completed session carries a tick before the name, whatever the colours mean.
  const title = `${p.done ? '✓ ' : ''}${String(info.event.title ?? '')}`;
  const compact = info.view.type === 'dayGridMonth';
  const root = el('div', compact ? 'dv-event dv-event-compact' : 'dv-event');
  // The spaces between the parts are not laid out (grid and flex items) but keep the words apart in the name.
  const add = (...nodes: Node[]) => nodes.forEach((n) => root.append(...(root.childNodes.length ? [' ', n] : [n])));
  if (compact) {
    add(el('span', 'dv-event-time', info.timeText), el('span', 'dv-event-title', title));
    // A month cell has room for the name: the missing note is a dot there (named for screen readers).
    if (p.badges.includes('note')) add(el('span', 'dv-dot-note'), el('span', 'sr-only', BADGE_TEXT.note));
  } else {
    add(el('div', 'dv-event-title', title), el('div', 'dv-event-time', [info.timeText, p.sub].filter(Boolean).join(' · ')));
    if (p.badges.length) {
      const badges = el('div', 'dv-event-badges');
      p.badges.forEach((b, i) => badges.append(...(i ? [' '] : []), el('span', `dv-badge dv-badge-${b}`, BADGE_TEXT[b] ?? b)));
      add(badges);
    }
  }
  root.append(el('span', 'sr-only', `. ${p.label}`));
  // The grid's element is the keyboard's button; the tests and the page find a session by its id.
  const id = String(info.event.id);
  requestAnimationFrame(() => {
    const box = root.closest<HTMLElement>('.ec-event');
    if (box) box.dataset.sessionId = id;
  });
  return { domNodes: [root] };
}
