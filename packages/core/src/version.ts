/** The product version, sent by the web app in `X-Client-Version` and served in the version file. */
export const APP_VERSION = '1.0.0';
/** Clients older than this get `outdated_client`. */
export const MIN_CLIENT_VERSION = '1.0.0';
export const CLIENT_VERSION_HEADER = 'x-client-version';

/** Compares dotted numeric versions: negative when a < b, 0 when equal, positive when a > b. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((p) => Number.parseInt(p, 10) || 0);
  const pb = b.split('.').map((p) => Number.parseInt(p, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

export function isOutdatedClient(version: string | undefined): boolean {
  if (!version) return false;
  if (!/^\d+(\.\d+){0,3}$/.test(version)) return true;
  return compareVersions(version, MIN_CLIENT_VERSION) < 0;
}
