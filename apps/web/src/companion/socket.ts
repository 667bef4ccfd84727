/**
 * The patient's notifications socket (spec §4/§7, realm `patients`, decision 0022): authenticate with
 * the access token, answer pings, reconnect after a second, refresh the token when the server says it
 * expired, stop when the session is gone. Features get the other frames through `onFrame`.
 */
import { REALTIME_PATH, SOCKET_HEARTBEAT_MS, SOCKET_PING_TIMEOUT_MS, SOCKET_RECONNECT_DELAY_MS, type RealtimeFrame } from '@divan/core';
import { accessToken, refresh, setSession } from './session';

export type SocketDeps = { onFrame: (frame: RealtimeFrame) => void; onStatus: (connected: boolean) => void };

export function openSocket({ onFrame, onStatus }: SocketDeps) {
  let socket: WebSocket | null = null;
  let stopped = false;
  let refreshFirst = false;
  let dead: ReturnType<typeof setTimeout> | undefined;
  let again: ReturnType<typeof setTimeout> | undefined;
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${REALTIME_PATH}`;
  const send = (s: WebSocket, frame: RealtimeFrame) => s.readyState === 1 && s.send(JSON.stringify(frame));
  const arm = (s: WebSocket) => {
    clearTimeout(dead);
    dead = setTimeout(() => s.close(), SOCKET_PING_TIMEOUT_MS + SOCKET_HEARTBEAT_MS);
  };

  const connect = () => {
    if (stopped) return;
    const s = new WebSocket(url);
    socket = s;
    s.onopen = () => {
      arm(s);
      accessToken().then(
        (token) => send(s, { event: 'authenticate', data: { token, realm: 'patients' } }),
        () => s.close(),
      );
    };
    s.onmessage = (m) => {
      arm(s);
      let frame: RealtimeFrame;
      try {
        frame = JSON.parse(String(m.data)) as RealtimeFrame;
      } catch {
        return;
      }
      if (frame.event === 'authenticated') onStatus(true);
      else if (frame.event === 'ping') send(s, { event: 'pong' });
      else if (frame.event === 'disconnect') {
        const code = (frame.data as { code?: string } | undefined)?.code;
        if (code === 'invalid_access_token') refreshFirst = true;
        else if (code === 'session_not_found') {
          stopped = true;
          setSession(null);
        } else if (code === 'max_sessions_reached') stopped = true;
      } else if (frame.event !== 'pong' && frame.event !== 'error') onFrame(frame); // `error`: a frame of ours refused, nothing a feature acts on
    };
    s.onclose = () => {
      clearTimeout(dead);
      if (socket === s) socket = null;
      onStatus(false);
      if (!stopped) again = setTimeout(() => void reconnect(), SOCKET_RECONNECT_DELAY_MS);
    };
  };
  const reconnect = async () => {
    if (refreshFirst) {
      refreshFirst = false;
      await refresh().catch(() => undefined);
    }
    connect();
  };
  connect();
  return {
    emit: (event: string, data?: unknown) => socket && send(socket, { event, data }),
    stop: () => {
      stopped = true;
      clearTimeout(again);
      clearTimeout(dead);
      socket?.close(1000);
      socket = null;
    },
  };
}
