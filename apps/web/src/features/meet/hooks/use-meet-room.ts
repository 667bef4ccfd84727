import { useCallback, useEffect, useRef, useState } from 'react';
import type { MeetJoin, MeetRoomState, MeetSignal } from '@divan/core';
import { isApiError } from '@/lib/http';
import { MeetCall, type CallState } from '../utils/meet-call';
import { meetClientId } from '../utils/client-id';
import { MeetSocket, type MeetSocketStatus } from '../utils/meet-socket';
import type { LocalMedia } from './use-local-media';

export type RoomEnd = { kind: 'left' } | { kind: 'refused'; code: string; message: string };

/**
 * The room once the participant enters: the socket (waiting room, admission, relayed signalling), the
 * call, and the local tracks followed by the call. `rejoin` asks the server again for a ticket (the
 * HTTP join), so a reconnection is checked like the first entry.
 */
export function useMeetRoom(join: MeetJoin, media: LocalMedia, rejoin: () => Promise<MeetJoin>) {
  const [room, setRoom] = useState<MeetRoomState | null>(null);
  const [socketStatus, setSocketStatus] = useState<MeetSocketStatus>('connecting');
  const [callState, setCallState] = useState<CallState>('idle');
  const [remote, setRemote] = useState<MediaStream | null>(null);
  const [end, setEnd] = useState<RoomEnd | null>(null);
  const socketRef = useRef<MeetSocket | null>(null);
  const callRef = useRef<MeetCall | null>(null);
  const roomRef = useRef<MeetRoomState | null>(null);

  useEffect(() => {
    const send = (signal: MeetSignal) => socketRef.current?.send({ event: 'signal', data: signal });
    const call = new MeetCall({
      role: join.role,
      iceServers: join.iceServers,
      send,
      onRemoteStream: setRemote,
      onState: setCallState,
      onLost: () => {
        const r = roomRef.current;
        if (!r?.admitted || !r.peer?.admitted) return;
        if (join.role === 'therapist') call.offer();
        else send({ restart: true });
      },
    });
    const socket = new MeetSocket({
      clientId: meetClientId(),
      // A fresh ticket per connection: the lobby may have lasted longer than the first one.
      getTicket: async () => (await rejoin()).ticket,
      isFinal: (error) =>
        isApiError(error) && error.code !== 'network_error' && error.code !== 'too_many_requests' && error.status < 500
          ? { code: error.code, message: error.message }
          : null,
      onStatus: setSocketStatus,
      onRefused: (code, message) => {
        call.hangUp();
        setEnd({ kind: 'refused', code, message });
      },
      onFrame: (frame) => {
        if (frame.event === 'room') {
          roomRef.current = frame.data;
          setRoom(frame.data);
          // The other one left: this call is over; a new one starts when they are back.
          if (!frame.data.peer) call.hangUp();
        } else if (frame.event === 'peer-ready') call.offer();
        else if (frame.event === 'signal') call.handle(frame.data);
      },
    });
    callRef.current = call;
    socketRef.current = socket;
    socket.start();
    return () => {
      socket.stop();
      call.hangUp();
      socketRef.current = null;
      callRef.current = null;
    };
    // One room per join: a new ticket for the same room comes through `rejoin`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [join.session.id, join.role]);

  useEffect(() => callRef.current?.setTrack('audio', media.tracks.audio), [media.tracks.audio]);
  useEffect(() => callRef.current?.setTrack('video', media.tracks.video), [media.tracks.video]);

  const admit = useCallback(() => socketRef.current?.send({ event: 'admit' }), []);
  const leave = useCallback(() => {
    socketRef.current?.stop();
    callRef.current?.hangUp();
    media.stop();
    setEnd({ kind: 'left' });
  }, [media]);

  return { room, socketStatus, callState, remote, end, admit, leave };
}
