import { EMBED_CLOSE_MESSAGE, EMBED_RESIZE_MESSAGE } from '@divan/core/rules';

/** Inside an iframe on the therapist's website. */
export const embedded = (() => {
  try {
    return window.parent !== window;
  } catch {
    return true;
  }
})();

/**
 * Tells the framing page the content's height on every change, so its iframe fits without a scroll
 * bar. Target '*': the height is no secret, and the framing origins are checked by the server's CSP.
 */
export function startEmbedResize(): () => void {
  if (!embedded || typeof ResizeObserver === 'undefined') return () => {};
  let last = -1;
  // The content's own height (the frame drops its full-screen minimum when embedded): the document's
  // scrollHeight never falls below the iframe's, so the frame could grow but never shrink back.
  const content = document.getElementById('root') ?? document.body;
  const post = () => {
    const height = Math.ceil(content.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: EMBED_RESIZE_MESSAGE, height }, '*');
  };
  const observer = new ResizeObserver(post);
  observer.observe(content);
  post();
  // Escape pressed inside the frame never reaches the framing page: tell it, so embed.js's dialog closes
  // (an inline iframe ignores it). A key already handled here (a menu, a dialog of the page) is left alone.
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && !e.defaultPrevented) window.parent.postMessage({ type: EMBED_CLOSE_MESSAGE }, '*');
  };
  window.addEventListener('keydown', onKey);
  return () => {
    observer.disconnect();
    window.removeEventListener('keydown', onKey);
  };
}
