/**
 * The patient's companion's own entry (companion.html, served for /p and /p/…): React (preact/compat
 * in production) and this folder only, no app shell, router or query library, to keep its first
 * screen within 100 KB of gzipped JavaScript (scripts/bundle-report.mjs). Installable: a web app
 * manifest and a service worker that keeps the shell (public/companion-sw.js), never API answers.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { CompanionApp } from './app';
import '../index.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <CompanionApp />
  </StrictMode>,
);

if ('serviceWorker' in navigator && import.meta.env.PROD)
  window.addEventListener('load', () => void navigator.serviceWorker.register('/companion-sw.js', { scope: '/p/' }).catch(() => undefined));
