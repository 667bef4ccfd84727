import { UPDATE_POLL_MS } from '@divan/core';

/**
 * Polls the version file of the deployed build (cache-busted) and calls back once when it differs from
 * the running one. Failures are silent: the check is a courtesy, never an error the user sees.
 */
export function startUpdateChecker(currentVersion: string, onUpdate: (version: string) => void): () => void {
  let stopped = false;
  const check = async () => {
    try {
      const res = await fetch(`/version.json?t=${Date.now()}`, { cache: 'no-store' });
      if (!res.ok) return;
      const { version } = (await res.json()) as { version?: unknown };
      if (!stopped && typeof version === 'string' && version !== currentVersion) {
        stop();
        onUpdate(version);
      }
    } catch {
      // Offline or a deploy in progress: try again on the next tick.
    }
  };
  const timer = setInterval(() => void check(), UPDATE_POLL_MS);
  const stop = () => {
    stopped = true;
    clearInterval(timer);
  };
  return stop;
}
