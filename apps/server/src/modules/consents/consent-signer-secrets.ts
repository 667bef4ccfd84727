import type { ConsentDataField } from '@divan/core';
import type { Cipher } from '../../platform/crypto/cipher';
import type { SignerRow, StoredSignature } from './consent-envelopes.tables';

export type SignerSecrets = { data: Partial<Record<ConsentDataField, string>>; signature: StoredSignature };

/** Each value is bound to its signer and column: moved to another row, it does not decrypt. */
const aad = (signerId: string, column: 'data' | 'signature') => `consent_signers:${signerId}:${column}`;

/**
 * What a signer gives (ID number, address, phone, their signature) is personal data next to health
 * data: stored encrypted with the workspace's key, like the clinical history. The workspace's key must
 * be loaded before a transaction on PGlite (`cipher.forWorkspace`), whose one connection it holds.
 */
export async function sealSignerSecrets(
  cipher: Cipher,
  workspaceId: string,
  signerId: string,
  s: SignerSecrets,
): Promise<{ dataEnc: string; signatureEnc: string }> {
  const wc = await cipher.forWorkspace(workspaceId);
  return {
    dataEnc: wc.encryptText(JSON.stringify(s.data), aad(signerId, 'data')),
    signatureEnc: wc.encryptText(JSON.stringify(s.signature), aad(signerId, 'signature')),
  };
}

/** A signed signer's data and signature; null before they sign. */
export async function openSignerSecrets(
  cipher: Cipher,
  workspaceId: string,
  row: Pick<SignerRow, 'id' | 'dataEnc' | 'signatureEnc'>,
): Promise<SignerSecrets | null> {
  if (!row.dataEnc || !row.signatureEnc) return null;
  const wc = await cipher.forWorkspace(workspaceId);
  return {
    data: JSON.parse(wc.decryptText(row.dataEnc, aad(row.id, 'data'))) as SignerSecrets['data'],
    signature: JSON.parse(wc.decryptText(row.signatureEnc, aad(row.id, 'signature'))) as StoredSignature,
  };
}
