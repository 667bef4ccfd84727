import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { guestPath } from './app/guest/guest-paths';
import { AppProvider } from './app/provider';
import { forgetReloadLater, isStaleChunk, reloadOnce } from './lib/stale-chunk';
import { useAuthStore } from './stores/auth-store';
import './index.css';

const root = createRoot(document.getElementById('root')!);
const draw = (page: ReactNode) =>
  root.render(
    <StrictMode>
      <AppProvider>{page}</AppProvider>
    </StrictMode>,
  );

/** A chunk that does not load (a deploy replaced it, the network dropped): one reload, then a plain message. */
function failed(error: unknown) {
  if (isStaleChunk(error) && reloadOnce()) return;
  console.error(error);
  draw(
    <main className="grid min-h-dvh place-items-center px-6 text-center">
      <p className="max-w-md text-[0.9375rem] leading-relaxed">
        No hemos podido cargar Diván. Revisa tu conexión y{' '}
        <button type="button" className="font-medium text-primary underline" onClick={() => window.location.reload()}>
          recarga la página
        </button>
        .
      </p>
    </main>,
  );
}

let app: Promise<void> | undefined;
/** The app with its router: every page but a signed-out visitor's sign-in pages (apps/web/docs/bundle-budget.md). */
const startApp = () => (app ??= import('./app/router').then((m) => draw(<m.AppRouter />), failed));

// The auth store reads localStorage as it is created: who is signed in is known before anything draws.
if (guestPath(window.location.pathname) && !useAuthStore.getState().loggedIn)
  void import('./app/guest/guest-app').then((m) => draw(<m.GuestApp leave={() => void startApp()} />), failed);
else void startApp();

forgetReloadLater();
