import type { InvoiceSummary } from '../api/invoices-api';

type Issued = Pick<InvoiceSummary, 'sellerType' | 'seller' | 'therapist'>;

/** Who issues the invoice (§6): its frozen seller once issued; a draft's, its therapist or «El espacio». */
export const issuerOf = (i: Issued): string => i.seller?.fullName || (i.sellerType === 'workspace' ? 'El espacio' : i.therapist.name);

/** One key per issuer: each series is numbered per issuer, so two «2026-0001» are told apart by it. */
const issuerKey = (i: Issued) => (i.sellerType === 'workspace' ? 'workspace' : `therapist:${i.therapist.id}`);

/** The «Emisor» column is shown only when the list holds invoices of more than one issuer. */
export const showsIssuer = (items: readonly Issued[]): boolean => new Set(items.map(issuerKey)).size > 1;
