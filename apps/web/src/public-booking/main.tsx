/**
 * The public booking pages' own entry (booking.html): React and these pages only, no app shell, no
 * router or query library, to stay under 80 KB of gzipped JavaScript (scripts/bundle-report.mjs).
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BookingApp } from './app';
import { embedded, startEmbedResize } from './embed';
import '../index.css';

if (embedded) document.documentElement.classList.add('embedded');
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BookingApp />
  </StrictMode>,
);
startEmbedResize();
