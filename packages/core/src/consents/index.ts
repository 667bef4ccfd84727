/** Consents (issue 13): templates, their rules and variables, signatures, and the ready-made templates. */
export * from './consent-template.contracts';
export * from './consent-template.rules';
export * from './consent-variables';
export * from './signature-image';
export * from './ready-made';
export * from './consent-envelope.contracts';
export * from './consent-envelope.rules';
