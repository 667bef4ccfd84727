import type { InvoiceType } from './fingerprint';

/** Input of the VERI*FACTU XML builder. Amounts are integer cents, dates YYYY-MM-DD. */

/** IDFactura: who issued which invoice when. */
export type InvoiceRef = {
  /** NIF of the issuer (9 characters). */
  issuerTaxId: string;
  /** Series and number, as printed on the invoice (max 60 characters). */
  number: string;
  /** YYYY-MM-DD */
  issueDate: string;
};

/** Encadenamiento/RegistroAnterior: the previous record of the same issuer and its fingerprint. */
export type ChainLink = InvoiceRef & { fingerprint: string };

/** An identifier other than a Spanish NIF (IDOtroType). */
export type OtherId = {
  /** ISO 3166-1 alpha-2; the AEAT refuses ES with idType 02. */
  countryCode?: string;
  /** 02 NIF-IVA, 03 pasaporte, 04 documento del país de residencia, 05 certificado de residencia, 06 otro, 07 no censado. */
  idType: '02' | '03' | '04' | '05' | '06' | '07';
  id: string;
};

/** IDDestinatario: the client, with a NIF or another identifier. */
export type Recipient = { name: string; taxId: string } | { name: string; otherId: OtherId };

/** One DetalleDesglose line (Impuesto 01 IVA, ClaveRegimen 01 general). */
export type TaxLine =
  | { kind: 'taxed'; /** percent, e.g. 21 */ ratePercent: number; baseCents: number; vatCents: number }
  /** Exempt: E1 is art. 20 LIVA (health care by psychologists and other professionals). */
  | { kind: 'exempt'; exemption: 'E1' | 'E2' | 'E3' | 'E4' | 'E5' | 'E6'; baseCents: number }
  /** Not subject: N1 (arts. 7, 14 and others), N2 (place-of-supply rules: the service is taxed elsewhere, or by the buyer). */
  | { kind: 'not_subject'; code: 'N1' | 'N2'; baseCents: number };

/** For R1–R5: what is rectified and how (S: by substitution, I: by differences). */
export type Rectification = {
  type: 'S' | 'I';
  invoices: InvoiceRef[];
  /** ImporteRectificacion: required by the AEAT for substitution ('S'); the rectified base and VAT. */
  rectified?: { baseCents: number; vatCents: number };
};

/** SistemaInformatico: the software that produced the record. */
export type SoftwareInfo = {
  /** The producer of the software. */
  vendorName: string;
  vendorTaxId: string;
  /** Defaults: 'Diván', '01', '1.0'. */
  name?: string;
  id?: string;
  version?: string;
  /** Identifies this installation (max 100 characters). */
  installationNumber: string;
};

export type RegistrationRecord = {
  kind: 'registration';
  invoice: InvoiceRef;
  issuerName: string;
  invoiceType: InvoiceType;
  rectification?: Rectification;
  description: string;
  recipients?: Recipient[];
  lines: TaxLine[];
  vatTotalCents: number;
  totalCents: number;
  /** null for the first record of this issuer's chain. */
  previous: ChainLink | null;
  /** FechaHoraHusoGenRegistro, see formatGeneratedAt. */
  generatedAt: string;
  /** The stored fingerprint; when given, the builder refuses a record whose fields no longer match it. */
  fingerprint?: string;
};

export type CancellationRecord = {
  kind: 'cancellation';
  /** The invoice being cancelled. */
  invoice: InvoiceRef;
  previous: ChainLink | null;
  generatedAt: string;
  fingerprint?: string;
};

export type VerifactuRecord = RegistrationRecord | CancellationRecord;

export type RegFactuInput = {
  /** Cabecera/ObligadoEmision. */
  issuer: { name: string; taxId: string };
  software: SoftwareInfo;
  /** 1 to 1000 records, in the order they were generated. */
  records: VerifactuRecord[];
};
