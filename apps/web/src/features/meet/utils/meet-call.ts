import type { IceServer, MeetRole, MeetSignal } from '@divan/core';

export type CallState = RTCPeerConnectionState | 'idle';

export type MeetCallDeps = {
  role: MeetRole;
  iceServers: IceServer[];
  send: (signal: MeetSignal) => void;
  onRemoteStream: (stream: MediaStream | null) => void;
  onState: (state: CallState) => void;
  /** The connection failed, or stayed lost: the therapist calls again, the patient asks for it. */
  onLost: () => void;
};

type Kind = 'audio' | 'video';
/** A connection "disconnected" this long (a network change) is not coming back by itself. */
const LOST_AFTER_MS = 5000;

/**
 * One side of the call, on a plain RTCPeerConnection. The therapist always makes the offer (no
 * glare), the patient answers; every (re)connection is a new call with its own id, so a reconnection
 * never depends on the old connection's state. An audio and a video transceiver exist from the start:
 * a muted camera, another device or no device at all are only a different track on them.
 */
export class MeetCall {
  private pc: RTCPeerConnection | null = null;
  private callId: string | null = null;
  private readonly tracks: Record<Kind, MediaStreamTrack | null> = { audio: null, video: null };
  private work: Promise<void> = Promise.resolve();
  private lostTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly deps: MeetCallDeps) {}

  get connection(): RTCPeerConnection | null {
    return this.pc;
  }

  /** What the camera or microphone sends now (null: nothing); the current call follows at once. */
  setTrack(kind: Kind, track: MediaStreamTrack | null) {
    this.tracks[kind] = track;
    const sender = this.pc?.getTransceivers().find((t) => kindOf(t) === kind)?.sender;
    if (sender) void sender.replaceTrack(track).catch(() => undefined);
  }

  /** Therapist: a new call to the patient (the first, or after a drop). */
  offer() {
    this.enqueue(async () => {
      const pc = this.open(crypto.randomUUID());
      for (const kind of ['audio', 'video'] as const) pc.addTransceiver(this.tracks[kind] ?? kind, { direction: 'sendrecv' });
      await pc.setLocalDescription(await pc.createOffer());
      this.deps.send({ callId: this.callId!, description: { type: 'offer', sdp: pc.localDescription!.sdp } });
    });
  }

  /** What the other side relayed, in the order it came (a candidate waits for its description). */
  handle(signal: MeetSignal) {
    this.enqueue(async () => {
      if ('restart' in signal) {
        if (this.deps.role === 'therapist') this.offer();
      } else if ('description' in signal) {
        if (signal.description.type === 'offer' && this.deps.role === 'patient')
          await this.answer(signal.callId ?? '', signal.description.sdp);
        else if (signal.description.type === 'answer' && signal.callId === this.callId && this.pc?.signalingState === 'have-local-offer')
          await this.pc.setRemoteDescription(signal.description);
      } else if ('candidate' in signal && signal.callId === this.callId && this.pc) {
        await this.pc.addIceCandidate(signal.candidate ?? undefined).catch(() => undefined);
      }
    });
  }

  hangUp() {
    clearTimeout(this.lostTimer);
    this.pc?.close();
    this.pc = null;
    this.callId = null;
    this.deps.onRemoteStream(null);
    this.deps.onState('idle');
  }

  private async answer(callId: string, sdp: string) {
    const pc = this.open(callId);
    await pc.setRemoteDescription({ type: 'offer', sdp });
    for (const t of pc.getTransceivers()) {
      const kind = kindOf(t);
      if (!kind) continue;
      t.direction = 'sendrecv';
      await t.sender.replaceTrack(this.tracks[kind]);
    }
    await pc.setLocalDescription(await pc.createAnswer());
    this.deps.send({ callId, description: { type: 'answer', sdp: pc.localDescription!.sdp } });
  }

  /** A new connection for call `callId`, the previous one closed. */
  private open(callId: string): RTCPeerConnection {
    this.hangUp();
    const pc = new RTCPeerConnection({ iceServers: this.deps.iceServers });
    this.pc = pc;
    this.callId = callId;
    const remote = new MediaStream();
    pc.ontrack = (e) => {
      remote.addTrack(e.track);
      // A new stream object each time, so the <video> element takes the added track for sure.
      this.deps.onRemoteStream(new MediaStream(remote.getTracks()));
    };
    pc.onicecandidate = (e) => {
      if (pc !== this.pc) return;
      const c = e.candidate;
      this.deps.send({
        callId,
        candidate: c
          ? { candidate: c.candidate, sdpMid: c.sdpMid, sdpMLineIndex: c.sdpMLineIndex, usernameFragment: c.usernameFragment }
          : null,
      });
    };
    pc.onconnectionstatechange = () => {
      if (pc !== this.pc) return;
      const state = pc.connectionState;
      this.deps.onState(state);
      clearTimeout(this.lostTimer);
      if (state === 'failed') this.deps.onLost();
      else if (state === 'disconnected')
        this.lostTimer = setTimeout(() => pc === this.pc && pc.connectionState === 'disconnected' && this.deps.onLost(), LOST_AFTER_MS);
    };
    this.deps.onState(pc.connectionState);
    return pc;
  }

  private enqueue(step: () => Promise<void>) {
    this.work = this.work.then(step).catch((error: unknown) => console.warn('videollamada:', error));
  }
}

/** A transceiver's kind, from its receiver's track (there from the start, whichever side made it). */
function kindOf(t: RTCRtpTransceiver): Kind | null {
  const kind = t.receiver.track?.kind;
  return kind === 'audio' || kind === 'video' ? kind : null;
}
