import { errorMessage, errorStatus, type ErrorCode, type FieldError } from '@divan/core';

/** The one error type: a catalogue code (spec §8), its status, and optional field errors. */
export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    readonly fields?: FieldError[],
    message?: string,
  ) {
    super(message ?? errorMessage(code));
    this.statusCode = errorStatus(code);
  }
}

export const fail = (code: ErrorCode, message?: string): never => {
  throw new AppError(code, undefined, message);
};
