// The load of the chat bench: sockets of connected patients spread over two server processes, a therapist
// sending messages through one of them, every delivery timed from the start of its POST to the frame's
// arrival. Everything runs in this process, so send and receipt read the same clock.
import WebSocket from 'ws';
import type { ConnectedPatient } from './chat-data';

export type Server = { name: string; url: string };
type Frame = { event: string; data?: { patientFileId?: string; message?: { body?: string } } };

export type Sockets = {
  /** Index of the server each patient's socket is on. */
  serverOf: number[];
  /** Chat frames each socket got, by message body. */
  received: Map<string, number>;
  onMessage: (fn: (body: string, socketServer: number, at: number) => void) => void;
  close: () => void;
};

function open(url: string, token: string, realm: 'patients' | 'therapists', onFrame: (f: Frame, at: number) => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/api/v1/notifications`);
    const timer = setTimeout(() => reject(new Error('socket not authenticated within 15 s')), 15_000);
    ws.on('error', reject);
    ws.on('open', () => ws.send(JSON.stringify({ event: 'authenticate', data: { token, realm } })));
    ws.on('message', (raw) => {
      const at = performance.now();
      const f = JSON.parse(String(raw)) as Frame;
      if (f.event === 'ping') ws.send(JSON.stringify({ event: 'pong' }));
      else if (f.event === 'authenticated') {
        clearTimeout(timer);
        resolve(ws);
      } else if (f.event === 'disconnect') reject(new Error(`socket refused: ${JSON.stringify(f.data)}`));
      else onFrame(f, at);
    });
  });
}

/** One socket per patient, alternately on each server, `concurrency` opening at a time. */
export async function openPatientSockets(servers: Server[], patients: ConnectedPatient[], concurrency = 50): Promise<Sockets> {
  const sockets: WebSocket[] = [];
  const received = new Map<string, number>();
  let listener: (body: string, server: number, at: number) => void = () => undefined;
  const serverOf = patients.map((_, i) => i % servers.length);
  let next = 0;
  const worker = async () => {
    while (next < patients.length) {
      const i = next++;
      const s = serverOf[i]!;
      sockets.push(
        await open(servers[s]!.url, patients[i]!.accessToken, 'patients', (f, at) => {
          const body = f.event === 'chat-message' ? f.data?.message?.body : undefined;
          if (!body) return;
          received.set(body, (received.get(body) ?? 0) + 1);
          listener(body, s, at);
        }),
      );
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return {
    serverOf,
    received,
    onMessage: (fn) => (listener = fn),
    close: () => sockets.forEach((w) => w.terminate()),
  };
}

export type FanoutResult = {
  sent: number;
  seconds: number;
  perSecond: number;
  latencies: { same: number[]; other: number[] };
  errors: number;
};

/**
 * `senders` loops, for `seconds`, each POSTing the next patient's message through `via` (round robin over
 * the patients); a message's latency is from its POST's start to its patient's socket getting it.
 */
export async function sendFanout(
  via: Server,
  viaIndex: number,
  therapistToken: string,
  workspaceId: string,
  patients: ConnectedPatient[],
  sockets: Sockets,
  o: { senders: number; seconds: number; tag: string },
): Promise<FanoutResult> {
  const started = new Map<string, number>();
  const latencies = { same: [] as number[], other: [] as number[] };
  sockets.onMessage((body, server, at) => {
    const t0 = started.get(body);
    if (t0 !== undefined) (server === viaIndex ? latencies.same : latencies.other).push(at - t0);
  });
  let seq = 0;
  let errors = 0;
  const end = performance.now() + o.seconds * 1000;
  const sender = async () => {
    while (performance.now() < end) {
      const n = seq++;
      const p = patients[n % patients.length]!;
      const body = `${o.tag}-${n}`;
      started.set(body, performance.now());
      const res = await fetch(`${via.url}/api/v1/workspaces/${workspaceId}/chats/${p.patientFileId}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${therapistToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ body }),
      }).catch(() => null);
      if (!res || res.status !== 201) {
        errors++;
        started.delete(body);
      }
      await res?.arrayBuffer();
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: o.senders }, sender));
  const seconds = (performance.now() - t0) / 1000;
  return { sent: seq - errors, seconds, perSecond: (seq - errors) / seconds, latencies, errors };
}

/** Requests per second of the bare route at `senders` loops of fetch, the same client machinery as the sends. */
export async function bareRate(url: string, senders: number, seconds: number): Promise<number> {
  let n = 0;
  const end = performance.now() + seconds * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: senders }, async () => {
      while (performance.now() < end) {
        const res = await fetch(url);
        await res.arrayBuffer();
        n++;
      }
    }),
  );
  return n / ((performance.now() - t0) / 1000);
}

export const quantile = (xs: number[], q: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
