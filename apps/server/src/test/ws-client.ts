import WebSocket from 'ws';

type Frame = { event: string; data?: unknown };

/** A websocket test client that queues frames so a test can await the next one of a kind. */
export async function connectSocket(baseUrl: string, path = '/api/v1/notifications') {
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}${path}`);
  const frames: Frame[] = [];
  const waiters: { event: string; resolve: (f: Frame) => void }[] = [];
  let closed: { code: number } | undefined;
  socket.on('message', (raw) => {
    const frame = JSON.parse(String(raw)) as Frame;
    const i = waiters.findIndex((w) => w.event === frame.event);
    if (i >= 0) waiters.splice(i, 1)[0]!.resolve(frame);
    else frames.push(frame);
  });
  socket.on('close', (code) => (closed = { code }));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    send: (event: string, data?: unknown) => socket.send(JSON.stringify(data === undefined ? { event } : { event, data })),
    /** Any frame as it goes on the wire: text (valid UTF-8 or not) or binary. */
    raw: (data: string | Buffer, opts: { binary?: boolean } = {}) => socket.send(data, { binary: opts.binary ?? false }),
    next(event: string, timeoutMs = 5000): Promise<Frame> {
      const i = frames.findIndex((f) => f.event === event);
      if (i >= 0) return Promise.resolve(frames.splice(i, 1)[0]!);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no '${event}' frame within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ event, resolve: (f) => (clearTimeout(timer), resolve(f)) });
      });
    },
    /**
     * The next `workspace-event` frame that is not a `workspace.access_changed`: a member's own joining is
     * emitted without waiting and, on PostgreSQL (LISTEN/NOTIFY), may reach a socket opened after it.
     */
    async nextDomainEvent(timeoutMs = 5000): Promise<Frame> {
      for (;;) {
        const frame = await this.next('workspace-event', timeoutMs);
        if ((frame.data as { name?: string } | undefined)?.name !== 'workspace.access_changed') return frame;
      }
    },
    /** Every frame of `event` received so far and not yet taken, without waiting for more. */
    taken(event: string): Frame[] {
      const out = frames.filter((f) => f.event === event);
      for (const f of out) frames.splice(frames.indexOf(f), 1);
      return out;
    },
    async closedWith(timeoutMs = 5000) {
      const start = Date.now();
      while (!closed && Date.now() - start < timeoutMs) await new Promise((r) => setTimeout(r, 20));
      return closed;
    },
    close: () => socket.close(),
  };
}

/** A socket on the notifications path signed in as `token`'s user of `realm`: `authenticate` sent and its `authenticated` frame taken. */
export async function authenticatedSocket(baseUrl: string, token: string, realm: 'therapists' | 'patients' = 'therapists') {
  const socket = await connectSocket(baseUrl);
  socket.send('authenticate', { token, realm });
  await socket.next('authenticated');
  return socket;
}
