import type { BookingFlowDeps } from './booking-deps';

/**
 * What the booking keeps instead of its secrets: HMACs of the mailed code, the visitor's email and the
 * manage link's token (holds write them, confirmation and the manage link compare them), and the
 * associated data that binds a hold's encrypted visitor to that hold.
 */
type Hash = BookingFlowDeps['hash'];

export const holdCodeHash = (hash: Hash, holdId: string, code: string) => hash(`booking-hold:${holdId}:${code}`);
export const emailHash = (hash: Hash, email: string) => hash(`booking-email:${email}`);
export const manageTokenHash = (hash: Hash, token: string) => hash(`booking-manage:${token}`);
export const holdAad = (holdId: string) => `booking_holds:${holdId}:data`;
