import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';

/** The most of an unread body discarded after an answer; past it the connection is cut (a client pouring gigabytes). */
const DISCARD_MAX_BYTES = 64 * 1024 * 1024;
/** …and the longest wait for it (a client that stopped sending without closing). */
const DISCARD_MAX_MS = 30_000;

/**
 * An error answered while the client is still sending (a body past its limit, an upload refused
 * half-way) goes at once with `Connection: close`, but the connection is not closed until the rest of
 * the body has been read and thrown away. Closing with unread bytes in the socket makes the kernel
 * answer them with a reset: the client, still writing, sees a broken pipe instead of the 413 or 400.
 */
export function closeAfterUnreadBody(req: FastifyRequest, reply: FastifyReply): void {
  const raw = req.raw;
  if (raw.complete || raw.readableEnded || raw.destroyed) return;
  reply.header('connection', 'close');
  const socket = raw.socket as Socket | null;
  // Not a real socket (app.inject), or more than is worth reading: Node closes right after the answer.
  if (typeof socket?.destroySoon !== 'function' || Number(raw.headers['content-length']) > DISCARD_MAX_BYTES) return;
  const drained = new Promise<void>((resolve) => {
    let seen = 0;
    const done = () => {
      clearTimeout(timer);
      raw.off('data', onData).off('end', done).off('error', done);
      socket.off('close', done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DISCARD_MAX_BYTES) done();
    };
    const timer = setTimeout(done, DISCARD_MAX_MS);
    timer.unref();
    raw.on('data', onData).once('end', done).once('error', done);
    socket.once('close', done);
    // A parser that gave up (the multipart one) may still hold the stream, paused: take it back.
    raw.unpipe();
    raw.resume();
  });
  // Node ends a `Connection: close` answer's socket with destroySoon once the answer is written: later, here.
  const close = socket.destroySoon.bind(socket);
  socket.destroySoon = () => void drained.then(close);
}
