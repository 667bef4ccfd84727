import { errorMessage } from '@divan/core';
import { isApiError } from '@/lib/api-client';

/** The server's Spanish message, or the catalogue's generic one. */
export const messageOf = (error: unknown) => (isApiError(error) ? error.message : errorMessage('unexpected_error'));
