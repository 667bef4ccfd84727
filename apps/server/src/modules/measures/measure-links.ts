import { createHash, createHmac } from 'node:crypto';

/**
 * A measure's link: its token is an HMAC of the administration's id under the installation's secret
 * (256 bits, derivable again only by the server, for the reminder); the table keeps only its SHA-256.
 */
export function measureTokens(appSecret: string) {
  const key = createHmac('sha256', appSecret).update('divan:measure-link').digest();
  return {
    tokenFor: (id: string) => createHmac('sha256', key).update(id).digest('base64url'),
    hashOf: (token: string) => createHash('sha256').update(token).digest('base64url'),
  };
}
export type MeasureTokens = ReturnType<typeof measureTokens>;
