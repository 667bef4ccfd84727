type InputEvent = 'pointerdown' | 'pointermove' | 'keydown' | 'touchstart';

/**
 * Runs `fn` once, on the first of `events` anywhere on the page: what a screen needs only once someone
 * acts loads then, not with the page. Returns the clean-up, for an effect.
 */
export function onFirstInput(fn: () => void, events: readonly InputEvent[] = ['pointerdown', 'keydown']): () => void {
  const stop = () => events.forEach((e) => window.removeEventListener(e, onInput, true));
  function onInput() {
    stop();
    fn();
  }
  events.forEach((e) => window.addEventListener(e, onInput, { capture: true, passive: true }));
  return stop;
}
