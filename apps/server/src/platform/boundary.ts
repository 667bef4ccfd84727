/** What a boundary logs with (the app's logger; tests pass a recording one). */
export type BoundaryLog = { error(obj: object, msg: string): void };

/**
 * Runs a handler where nothing above it would catch: a websocket frame or a feature's handler of one,
 * a broker message, a socket greeting. A throw, or a rejection of the promise it returns, is logged at
 * error level naming the handler, and goes no further: one handler's bug never ends the process (issue 24).
 */
export function guard(log: BoundaryLog, handler: string, fn: () => unknown): void {
  const failed = (err: unknown) => log.error({ err, handler }, `${handler} failed`);
  try {
    const result = fn();
    if (result && typeof (result as PromiseLike<unknown>).then === 'function') Promise.resolve(result).catch(failed);
  } catch (err) {
    failed(err);
  }
}
