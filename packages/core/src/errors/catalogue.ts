/** A part of the error catalogue: each code with its HTTP status and its Spanish message. */
export type ErrorCatalogue = Record<string, readonly [number, string]>;
