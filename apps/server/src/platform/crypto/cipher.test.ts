import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { Cipher } from './cipher';

const cipher = new Cipher('s'.repeat(40));

describe('clinical data cipher', () => {
  it('round-trips text with a fresh iv each time and no clear text stored', () => {
    const a = cipher.encryptText('w1', 'Refiere ansiedad nocturna');
    const b = cipher.encryptText('w1', 'Refiere ansiedad nocturna');
    expect(a).not.toBe(b);
    expect(a).not.toContain('ansiedad');
    expect(cipher.decryptText('w1', a)).toBe('Refiere ansiedad nocturna');
  });

  it('uses a key per workspace and detects tampering', () => {
    const a = cipher.encryptText('w1', 'secreto');
    expect(() => cipher.decryptText('w2', a)).toThrow();
    const raw = Buffer.from(a.slice(3), 'base64');
    raw[raw.length - 1]! ^= 1;
    expect(() => cipher.decryptText('w1', `v1:${raw.toString('base64')}`)).toThrow();
  });

  it('round-trips a file as a stream', async () => {
    const data = Buffer.alloc(300_000, 7);
    data.write('%PDF-1.7 informe');
    const enc = await buffer(Readable.from([data.subarray(0, 1000), data.subarray(1000)]).pipe(cipher.encryptStream('w1')));
    expect(enc.length).toBe(data.length + 28);
    expect(enc.includes(Buffer.from('informe'))).toBe(false);
    const dec = await buffer(Readable.from([enc.subarray(12, enc.length - 16)]).pipe(cipher.decryptStream('w1', enc.subarray(0, 12), enc.subarray(enc.length - 16))));
    expect(dec.equals(data)).toBe(true);
  });
});
