export { DocumentSeal, verifySealed, type SealCheck, type SealInfo, type SealOptions } from './document-seal';
export { readP12, SealCertificateError, SEAL_FILES, type CertificateInfo, type SealCertificateProblem } from './certificate';
