/** VERI*FACTU building blocks (RD 1007/2023, Orden HAC/1177/2024): fingerprints, QR URL, XML records. */
export {
  registrationFingerprint,
  cancellationFingerprint,
  registrationHashInput,
  cancellationHashInput,
  registrationValues,
  cancellationValues,
  formatGeneratedAt,
  type InvoiceType,
  type RegistrationFingerprintInput,
  type CancellationFingerprintInput,
  type RegistrationHashValues,
  type CancellationHashValues,
} from './fingerprint';
export { registrationAmounts } from './amounts';
export { formatAmount, parseAmount, formatRate, toAeatDate, fromAeatDate } from './format';
export {
  verifactuQrUrl,
  VERIFACTU_QR_BASE_URL,
  VERIFACTU_QR_TEST_BASE_URL,
  VERIFACTU_LEGEND,
  VERIFACTU_VERIFIABLE_SENTENCE,
  VERIFACTU_QR_HEADING,
  type QrInvoice,
} from './qr';
export { buildRegFactuXml, recordFingerprint, escapeXml, SUMINISTRO_LR_NS, SUMINISTRO_INFORMACION_NS } from './xml';
export { parseRegFactuXml, type ParsedRecord, type ParsedRegistration, type ParsedCancellation } from './xml-parse';
export { verifyChain, type VerifyChainOptions } from './chain';
export type {
  InvoiceRef,
  ChainLink,
  OtherId,
  Recipient,
  TaxLine,
  Rectification,
  SoftwareInfo,
  RegistrationRecord,
  CancellationRecord,
  VerifactuRecord,
  RegFactuInput,
} from './types';
