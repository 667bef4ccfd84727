import { useLayoutEffect, useRef, useState } from 'react';

/** Never shorter than this: on a very low window the page scrolls instead of squeezing the messages. */
const MIN_HEIGHT_PX = 420;

/**
 * The height that takes an element from where it starts down to the bottom of the window (less the
 * main area's bottom padding), kept right as the window resizes or a banner above it comes or goes:
 * a conversation's send box stays in view without the page scrolling. `layoutKey`: measure again when
 * what is above changes (the list's heading hides on a phone once a conversation opens).
 */
export function useFillHeight<T extends HTMLElement>(layoutKey?: unknown) {
  const ref = useRef<T>(null);
  const [height, setHeight] = useState<number | undefined>(undefined);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const top = el.getBoundingClientRect().top + window.scrollY;
      const main = el.closest('main');
      const gap = main ? parseFloat(getComputedStyle(main).paddingBottom) || 0 : 0;
      const next = Math.max(MIN_HEIGHT_PX, Math.floor(window.innerHeight - top - gap));
      setHeight((h) => (h === next ? h : next));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    window.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [layoutKey]);
  return [ref, height] as const;
}
