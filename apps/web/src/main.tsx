import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProvider } from './app/provider';
import { AppRouter } from './app/router';
import './index.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProvider>
      <AppRouter />
    </AppProvider>
  </StrictMode>,
);

// Once the app has run for a while, a later stale-chunk error may reload again (see route error boundary).
setTimeout(() => sessionStorage.removeItem('divan:chunk-reload'), 10_000);
