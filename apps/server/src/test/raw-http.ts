import { connect, type Socket } from 'node:net';

/** What a plain client saw: the answer (if one came), and any socket error (EPIPE, ECONNRESET) on the way. */
export type RawAnswer = { status: number; headers: Record<string, string>; body: string; socketError: string | null };

type Parsed = { status: number; headers: Record<string, string>; body: string };

/** An HTTP/1.1 answer read off the socket once whole (its Content-Length has arrived); null before. */
function parse(bytes: Buffer): Parsed | null {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  const length = Number(headers['content-length'] ?? NaN);
  const body = bytes.subarray(end + 4);
  if (Number.isFinite(length) && body.length < length) return null;
  return {
    status: Number(statusLine!.split(' ')[1]),
    headers,
    body: body.subarray(0, Number.isFinite(length) ? length : undefined).toString('utf8'),
  };
}

function write(socket: Socket, data: Buffer, chunk = 64 * 1024): Promise<void> {
  return new Promise((resolve) => {
    let at = 0;
    const pump = () => {
      while (at < data.length && !socket.destroyed) {
        const more = socket.write(data.subarray(at, at + chunk));
        at += chunk;
        if (!more) return void socket.once('drain', pump);
      }
      resolve();
    };
    pump();
  });
}

/**
 * One request written on a plain TCP socket, as a phone or curl sends it, never through `app.inject`:
 * the head, then `body` (`Content-Length` is its length unless `contentLength` says otherwise). With
 * `afterAnswer`, those bytes are sent only once the answer has been read: a client still sending
 * when the server answers early (a body past its limit), which must neither break nor be cut. With
 * `thenStop` the client ends its side after the body (one that stopped sending). The request asks for
 * `Connection: close`; resolves once the server has closed the connection.
 */
export function rawRequest(
  base: string,
  req: {
    method: string;
    path: string;
    headers?: Record<string, string>;
    body?: Buffer;
    afterAnswer?: Buffer;
    contentLength?: number;
    thenStop?: boolean;
  },
): Promise<RawAnswer> {
  const url = new URL(base);
  const body = req.body ?? Buffer.alloc(0);
  const length = req.contentLength ?? body.length + (req.afterAnswer?.length ?? 0);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    let received = Buffer.alloc(0);
    let socketError: string | null = null;
    let answered: Parsed | null = null;
    let rest: Promise<void> | undefined;
    socket.on('data', (d: Buffer) => {
      received = Buffer.concat([received, d]);
      answered ??= parse(received);
      if (answered && req.afterAnswer && !rest) rest = write(socket, req.afterAnswer);
    });
    socket.on('error', (err: NodeJS.ErrnoException) => (socketError ??= err.code ?? err.message));
    socket.on('close', () => {
      const a = answered ?? parse(received);
      resolve({ status: a?.status ?? 0, headers: a?.headers ?? {}, body: a?.body ?? '', socketError });
    });
    // The client never ends its side: Node drops a request whose client half-closed before it was answered.
    const head = [
      `${req.method} ${req.path} HTTP/1.1`,
      `Host: ${url.host}`,
      `Content-Length: ${length}`,
      'Connection: close',
      ...Object.entries(req.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
    ];
    void write(socket, Buffer.from(head.join('\r\n') + '\r\n\r\n'))
      .then(() => write(socket, body))
      .then(() => {
        if (req.thenStop) socket.end();
      });
  });
}
