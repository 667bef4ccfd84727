import { cancellationHashInput, registrationHashInput, sha256Upper } from './fingerprint';
import { formatAmount, parseAmount } from './format';
import type { ChainLink } from './types';
import type { ParsedRecord } from './xml-parse';

export type VerifyChainOptions = {
  /**
   * When the records are a slice of longer chains: per issuer NIF, the last record before the
   * slice. Without an anchor, an issuer's first record must be a PrimerRegistro.
   */
  anchors?: Readonly<Record<string, ChainLink>>;
};

/** The fingerprints a record may legitimately carry (see the note on amounts in format.ts). */
function acceptedFingerprints(r: ParsedRecord): string[] {
  if (r.kind === 'cancellation') return [sha256Upper(cancellationHashInput(r.hashValues))];
  const literal = sha256Upper(registrationHashInput(r.hashValues));
  // The AEAT treats "123.1" and "123.10" alike, so a hash over either spelling is valid.
  const canonical = sha256Upper(
    registrationHashInput({
      ...r.hashValues,
      CuotaTotal: formatAmount(parseAmount(r.hashValues.CuotaTotal)),
      ImporteTotal: formatAmount(parseAmount(r.hashValues.ImporteTotal)),
    }),
  );
  return [literal, canonical];
}

const sameLink = (a: ChainLink | null, b: ChainLink | null) =>
  a === b ||
  (a !== null &&
    b !== null &&
    a.issuerTaxId === b.issuerTaxId &&
    a.number === b.number &&
    a.issueDate === b.issueDate &&
    a.fingerprint === b.fingerprint);

/**
 * Recomputes every record's fingerprint and checks that each record points at the previous record
 * of the same issuer (a cancellation is referred to by the cancelled invoice's id). Records of
 * several issuers may be interleaved. Returns the index of the first broken record, or null.
 */
export function verifyChain(records: readonly ParsedRecord[], options: VerifyChainOptions = {}): number | null {
  const last = new Map<string, ChainLink>(Object.entries(options.anchors ?? {}));
  for (const [i, r] of records.entries()) {
    if (!acceptedFingerprints(r).includes(r.fingerprint)) return i;
    if (!sameLink(r.previous, last.get(r.issuerTaxId) ?? null)) return i;
    last.set(r.issuerTaxId, { issuerTaxId: r.issuerTaxId, number: r.number, issueDate: r.issueDate, fingerprint: r.fingerprint });
  }
  return null;
}
