import { genericMessage } from '@divan/core';
import { isApiError } from './api-client';

/** What a person reads when a call fails: the server's Spanish message, or the catalogue's generic one. */
export const messageOf = (error: unknown): string => (isApiError(error) ? error.message : genericMessage('unexpected_error'));
