/*
 * Diván — reserva online en tu web.
 *
 *   <div data-divan-booking="https://<diván>/v1/reservations/<espacio>"></div>
 *   <script src="https://<diván>/embed.js" async></script>
 *
 * Each element with `data-divan-booking` (or the script itself with `data-url`) becomes an iframe of
 * the booking page that grows with its content: the page posts {type: 'divan:booking-height', height}
 * and only messages from Diván's origin and from that iframe are heard. `data-mode="button"` shows a
 * button instead (text in `data-label`) that opens the page over the site in a dialog; Escape, the close
 * button or a click outside closes it and gives the focus back to the button (Escape pressed inside the
 * booking page arrives as {type: 'divan:booking-close'} from the dialog's iframe).
 * No dependency, no global but `DivanBooking.mount()` (to run again on content added later).
 */
/* global window, document */
(function () {
  'use strict';
  var MESSAGE = 'divan:booking-height';
  var CLOSE = 'divan:booking-close';
  var MIN_HEIGHT = 480;
  var script = document.currentScript;
  var frames = [];

  function originOf(url) {
    try {
      return new URL(url, document.baseURI).origin;
    } catch {
      return null;
    }
  }

  /** Only Diván's own booking pages: never a `javascript:` URL or another site, whatever the markup says. */
  function bookingUrl(raw) {
    try {
      var url = new URL(raw, script && script.src ? script.src : document.baseURI);
      if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
      if (url.pathname.indexOf('/v1/reservations/') !== 0) return null;
      url.searchParams.set('embed', '1');
      return url;
    } catch {
      return null;
    }
  }

  function makeFrame(url, title) {
    var frame = document.createElement('iframe');
    frame.src = url.href;
    frame.title = title || 'Reserva online';
    frame.loading = 'lazy';
    frame.style.cssText = 'display:block;width:100%;border:0;background:transparent';
    frame.style.height = MIN_HEIGHT + 'px';
    frames.push({ frame: frame, origin: url.origin });
    return frame;
  }

  window.addEventListener('message', function (event) {
    var data = event.data;
    if (
      data &&
      data.type === CLOSE &&
      openDialog &&
      event.source === openDialog.frame.contentWindow &&
      event.origin === openDialog.origin
    ) {
      openDialog.close();
      return;
    }
    if (!data || data.type !== MESSAGE || typeof data.height !== 'number' || !isFinite(data.height)) return;
    for (var i = 0; i < frames.length; i++) {
      var f = frames[i];
      if (event.source === f.frame.contentWindow && event.origin === f.origin) {
        if (!f.frame.hasAttribute('data-divan-modal')) f.frame.style.height = Math.max(MIN_HEIGHT, Math.ceil(data.height)) + 'px';
        return;
      }
    }
  });

  var openDialog = null;

  function openModal(url, title, opener) {
    if (openDialog) return;
    var overlay = document.createElement('div');
    overlay.setAttribute('role', 'dialog');
    overlay.setAttribute('aria-modal', 'true');
    overlay.setAttribute('aria-label', title || 'Reserva online');
    overlay.style.cssText =
      'position:fixed;inset:0;z-index:2147483646;background:rgba(15,23,42,.55);display:flex;align-items:center;justify-content:center;padding:16px';
    var box = document.createElement('div');
    box.style.cssText =
      'position:relative;width:100%;max-width:760px;height:min(90vh,860px);background:#fff;border-radius:12px;overflow:hidden;box-shadow:0 20px 60px rgba(0,0,0,.3)';
    var close = document.createElement('button');
    close.type = 'button';
    close.setAttribute('aria-label', 'Cerrar');
    close.textContent = '\u00d7';
    close.style.cssText =
      'position:absolute;top:8px;right:8px;z-index:1;width:36px;height:36px;border:0;border-radius:18px;background:rgba(255,255,255,.9);font:24px/36px system-ui,sans-serif;cursor:pointer;color:#111';
    var frame = makeFrame(url, title);
    frame.setAttribute('data-divan-modal', '');
    frame.loading = 'eager';
    frame.style.height = '100%';
    box.appendChild(close);
    box.appendChild(frame);
    overlay.appendChild(box);
    var overflow = document.documentElement.style.overflow;
    document.documentElement.style.overflow = 'hidden';

    function onKey(e) {
      if (e.key === 'Escape') shut();
      // Keep the focus inside the dialog: from the close button, Tab goes to the page, and back.
      if (e.key === 'Tab' && document.activeElement === close && e.shiftKey) {
        e.preventDefault();
        frame.focus();
      }
    }
    function shut() {
      document.removeEventListener('keydown', onKey, true);
      document.documentElement.style.overflow = overflow;
      for (var i = frames.length - 1; i >= 0; i--) if (frames[i].frame === frame) frames.splice(i, 1);
      if (overlay.parentNode) overlay.parentNode.removeChild(overlay);
      openDialog = null;
      if (opener) opener.focus();
    }
    close.addEventListener('click', shut);
    overlay.addEventListener('click', function (e) {
      if (e.target === overlay) shut();
    });
    document.addEventListener('keydown', onKey, true);
    document.body.appendChild(overlay);
    openDialog = { close: shut, frame: frame, origin: url.origin };
    close.focus();
  }

  function mountOne(host, raw) {
    if (!host || host.getAttribute('data-divan-mounted')) return;
    var url = bookingUrl(raw);
    if (!url) return;
    host.setAttribute('data-divan-mounted', '1');
    var title = host.getAttribute('data-title') || 'Reserva online';
    if (host.getAttribute('data-mode') === 'button') {
      var button = document.createElement('button');
      button.type = 'button';
      button.className = 'divan-booking-button';
      button.textContent = host.getAttribute('data-label') || 'Reservar cita';
      button.setAttribute('aria-haspopup', 'dialog');
      if (!host.getAttribute('data-unstyled'))
        button.style.cssText =
          'display:inline-block;padding:12px 20px;border:0;border-radius:8px;background:' +
          (host.getAttribute('data-color') || '#3f6f5f') +
          ';color:#fff;font:600 16px/1.2 system-ui,sans-serif;cursor:pointer';
      button.addEventListener('click', function () {
        openModal(url, title, button);
      });
      host.appendChild(button);
    } else {
      host.appendChild(makeFrame(url, title));
    }
  }

  function mount() {
    var hosts = document.querySelectorAll('[data-divan-booking]');
    for (var i = 0; i < hosts.length; i++) mountOne(hosts[i], hosts[i].getAttribute('data-divan-booking'));
    // <script src=".../embed.js" data-url="..."> without a container: the iframe or button goes right after the script.
    if (script && script.getAttribute('data-url') && !script.getAttribute('data-divan-mounted')) {
      var host = document.createElement('div');
      var attrs = ['data-mode', 'data-label', 'data-title', 'data-color', 'data-unstyled'];
      for (var j = 0; j < attrs.length; j++) if (script.getAttribute(attrs[j])) host.setAttribute(attrs[j], script.getAttribute(attrs[j]));
      script.setAttribute('data-divan-mounted', '1');
      if (script.parentNode) script.parentNode.insertBefore(host, script.nextSibling);
      mountOne(host, script.getAttribute('data-url'));
    }
  }

  window.DivanBooking = { mount: mount, origin: script && script.src ? originOf(script.src) : null };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', mount);
  else mount();
})();
