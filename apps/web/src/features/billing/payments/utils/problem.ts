import { isApiError } from '@/lib/api-client';
import { messageOf } from '@/lib/error-message';

/** The server's refusal in one sentence: the field's own message when it names one (no email to send to…). */
export const problemOf = (error: unknown): string => (isApiError(error) && error.fields[0]?.message) || messageOf(error);
