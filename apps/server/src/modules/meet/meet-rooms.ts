import type { MeetRole, MeetRoomState } from '@divan/core';

/** One participant's socket as every process knows it: `nonce` names this very socket (a reconnection is a new one). */
export type Presence = { role: MeetRole; clientId: string; nonce: string; joinedAt: number; admitted: boolean };

/** A participant held by another process, as last announced; dropped when its process stops announcing it. */
type RemotePresence = Presence & { seenAt: number };

/**
 * The room of one session in one process: the participants whose sockets this process holds
 * (`local`), those held by other processes (`remote`), and the patients the therapist admitted.
 * Pure state: MeetHub owns the sockets and the broker, and asks this what to do.
 */
export class MeetRoom<Local extends Presence> {
  readonly local = new Map<MeetRole, Local>();
  private readonly remote = new Map<MeetRole, RemotePresence>();
  /** Patients (by client id) the therapist let in: a reconnection of theirs does not wait again. */
  readonly admittedClients = new Set<string>();
  constructor(
    readonly id: string,
    private readonly staleAfterMs: number,
  ) {}

  /** Who holds `role` now: this process's socket first, else another's that is still announced. */
  holder(role: MeetRole, now = Date.now()): Presence | undefined {
    const l = this.local.get(role);
    if (l) return l;
    const r = this.remote.get(role);
    if (r && now - r.seenAt > this.staleAfterMs) this.remote.delete(role);
    return this.remote.get(role);
  }

  /** Whether a new socket of `clientId` may take `role`: free, or held by the same page (a reconnection). */
  canTake(role: MeetRole, clientId: string, now = Date.now()): boolean {
    const h = this.holder(role, now);
    return !h || h.clientId === clientId;
  }

  seen(p: Presence, now = Date.now()) {
    this.remote.set(p.role, { ...p, seenAt: now });
  }

  forget(role: MeetRole, nonce: string) {
    if (this.remote.get(role)?.nonce === nonce) this.remote.delete(role);
  }

  get empty() {
    return this.local.size === 0;
  }

  stateFor(role: MeetRole, now = Date.now()): MeetRoomState {
    const me = this.holder(role, now)!;
    const peer = this.holder(role === 'therapist' ? 'patient' : 'therapist', now);
    return {
      role,
      admitted: role === 'therapist' || me.admitted,
      peer: peer ? { role: peer.role, admitted: peer.role === 'therapist' || peer.admitted } : null,
    };
  }
}

/**
 * Two sockets of different pages took one role at once (in two processes, before either heard of the
 * other): the earlier stays, the later is refused. Every process decides the same without talking.
 */
export function laterOf(a: Presence, b: Presence): Presence {
  if (a.joinedAt !== b.joinedAt) return a.joinedAt > b.joinedAt ? a : b;
  return a.nonce > b.nonce ? a : b;
}
