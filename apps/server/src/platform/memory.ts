import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * One full garbage collection once the server is up. Start-up reads ~15 MB that is garbage as soon as
 * PGlite runs (the WASM module's bytes, the file-system image), held in buffers V8 frees only on a full
 * collection, which an idle server may not run for minutes: without this, an idle `npm start` on PGlite
 * keeps ~10 MB more (docs/decisions/0007). `--expose-gc` set at run time, read through a fresh context.
 */
export function collectStartupGarbage() {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (() => void) | undefined;
  gc?.();
}
