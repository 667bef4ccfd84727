import type { MeasureKey } from '@divan/core';
import type { WorkspaceCipher } from '../../platform/crypto/cipher';

/** What an administration's `result_enc` holds: the answers in item order and each scale's exact numerator. */
export type StoredResult = { measure: MeasureKey; answers: number[]; nums: Record<string, number> };

/** Bound to its row: moved to another administration, it does not decrypt. */
const aad = (id: string) => `measure_administrations:${id}:result`;

export const sealResult = (wc: WorkspaceCipher, id: string, r: StoredResult) => wc.encryptText(JSON.stringify(r), aad(id));
export const openResult = (wc: WorkspaceCipher, id: string, enc: string) => JSON.parse(wc.decryptText(enc, aad(id))) as StoredResult;
