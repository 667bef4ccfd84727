/** The table and list roles @event-calendar puts on its grids. */
const STRUCTURE = new Set(['table', 'rowgroup', 'row', 'columnheader', 'rowheader', 'list', 'listitem']);

/**
 * @event-calendar marks its grids as tables and lists whose rows hold what tables may not (its
 * navigation, the events' buttons straight in a row group, days with no row around them: axe's
 * aria-required-children and aria-required-parent). Those roles are taken off (with their column and row numbers); a day that names its
 * date becomes a group with that name. The events stay buttons whose names say the day and the time,
 * so nothing a screen reader needs lived in the table. Kept up as the grid re-renders.
 */
export function plainGridRoles(root: HTMLElement): () => void {
  const fix = () => {
    for (const node of root.querySelectorAll<HTMLElement>('[aria-colindex], [aria-rowindex]')) {
      node.removeAttribute('aria-colindex');
      node.removeAttribute('aria-rowindex');
    }
    for (const node of root.querySelectorAll<HTMLElement>('[role]')) {
      const role = node.getAttribute('role')!;
      if (role === 'cell') {
        const label = node.querySelector('time')?.getAttribute('aria-label');
        if (label) {
          node.setAttribute('role', 'group');
          node.setAttribute('aria-label', label);
        } else node.removeAttribute('role');
      } else if (STRUCTURE.has(role)) node.removeAttribute('role');
    }
  };
  fix();
  const observer = new MutationObserver(fix);
  observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['role', 'aria-colindex', 'aria-rowindex'] });
  return () => observer.disconnect();
}
