import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { Storage } from '../../platform/storage/storage';

/**
 * Signed links to a video's bytes (issue 29): `<video src>` sends no Authorization header, so the page asks
 * for links (`GET …/media`) and the player reads them. A link names the video, the user and the rendition,
 * and expires; its MAC is the server's keyed hash. The full rendition is signed for buyers only and its
 * purchase checked again on every request (a refund ends it at once); the preview — the only bytes a
 * non-buyer ever gets — is a separate file cut at the preview's seconds.
 */
export type MediaRendition = 'full' | 'preview';
export type MediaClaim = { v: string; u: string; r: MediaRendition; e: number };

export class MediaLinks {
  constructor(private readonly mac: (value: string) => string) {}

  sign(claim: MediaClaim): string {
    const body = Buffer.from(JSON.stringify(claim)).toString('base64url');
    return `${body}.${this.mac(`divan-learning-media:${body}`)}`;
  }

  /** The claim of a well-signed, unexpired link; null otherwise (never says which). */
  verify(token: string, nowMs: number): MediaClaim | null {
    const [body, mac, extra] = token.split('.');
    if (!body || !mac || extra !== undefined) return null;
    const want = Buffer.from(this.mac(`divan-learning-media:${body}`));
    const got = Buffer.from(mac);
    if (want.length !== got.length || !timingSafeEqual(want, got)) return null;
    try {
      const c = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as MediaClaim;
      if (typeof c.v !== 'string' || typeof c.u !== 'string' || (c.r !== 'full' && c.r !== 'preview') || typeof c.e !== 'number')
        return null;
      return c.e * 1000 > nowMs ? c : null;
    } catch {
      return null;
    }
  }
}

/**
 * One `Range: bytes=…` of RFC 9110 over `size` bytes: `a-b`, `a-` or `-n` (the last n). Null: no usable
 * range (absent, another unit, several ranges) — the whole file is sent. 'unsatisfiable': past the end.
 */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const n = Number(m[2]);
    if (n === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/** Streams an MP4 from storage, a range of it when asked (206), never the whole file in memory. */
export async function sendMedia(reply: FastifyReply, storage: Storage, key: string, range: string | undefined, cache: string) {
  const size = await storage.size(key);
  const r = parseRange(range, size);
  reply.header('accept-ranges', 'bytes').header('content-type', 'video/mp4').header('cache-control', cache);
  if (r === 'unsatisfiable') return reply.status(416).header('content-range', `bytes */${size}`).send();
  if (!r) return reply.header('content-length', size).send(storage.get(key));
  return reply
    .status(206)
    .header('content-range', `bytes ${r.start}-${r.end}/${size}`)
    .header('content-length', r.end - r.start + 1)
    .send(storage.getRange(key, r.start, r.end));
}
