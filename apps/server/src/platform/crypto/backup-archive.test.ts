import { afterAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { BackupError, DAMAGED, NOT_AN_ARCHIVE, readArchive, writeArchive, WRONG_PASSPHRASE } from './backup-archive';

const dir = mkdtempSync(join(tmpdir(), 'divan-archive-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const FAST = { logN: 12, r: 8, p: 1 };
const big = randomBytes(200_000);
big.write('Historia clínica: refiere insomnio', 1000);

async function make(name: string, pass = 'caballo correcto batería grapa') {
  const file = join(dir, name);
  await writeArchive(
    file,
    pass,
    [
      { name: 'manifest.json', size: 2, data: () => Buffer.from('{}') },
      { name: 'files/a/informe.pdf', size: big.length, data: () => Readable.from([big.subarray(0, 70_000), big.subarray(70_000)]) },
      { name: 'empty', size: 0, data: () => Buffer.alloc(0) },
    ],
    FAST,
  );
  return file;
}

async function read(file: string, pass = 'caballo correcto batería grapa') {
  const got = new Map<string, Buffer>();
  const names = await readArchive(file, pass, (name) => {
    const parts: Buffer[] = [];
    return new Writable({
      write(c: Buffer, _e, cb) {
        parts.push(c);
        cb();
      },
      final(cb) {
        got.set(name, Buffer.concat(parts));
        cb();
      },
    });
  });
  return { names, got };
}

describe('encrypted backup archive', () => {
  it('round-trips named entries and keeps nothing in clear', async () => {
    const file = await make('ok.bak');
    expect(readFileSync(file).includes(Buffer.from('insomnio'))).toBe(false);
    const { names, got } = await read(file);
    expect(names).toEqual(['manifest.json', 'files/a/informe.pdf', 'empty']);
    expect(got.get('files/a/informe.pdf')!.equals(big)).toBe(true);
    expect(got.get('empty')!.length).toBe(0);
  });

  it('refuses a wrong passphrase before reading anything', async () => {
    const file = await make('pass.bak');
    const seen: string[] = [];
    await expect(readArchive(file, 'otra contraseña cualquiera', (n) => (seen.push(n), null))).rejects.toThrow(
      new BackupError(WRONG_PASSPHRASE),
    );
    expect(seen).toEqual([]);
  });

  it('refuses a cut, altered or lengthened archive, and a file that is no archive', async () => {
    const cut = await make('cut.bak');
    truncateSync(cut, statSync(cut).size - 100);
    await expect(read(cut)).rejects.toThrow(DAMAGED);
    // Cut exactly at a record boundary: the final record is missing.
    const whole = await make('boundary.bak');
    const bytes = readFileSync(whole);
    const firstRecordEnd = 52 + 5 + bytes.readUInt32BE(52 + 1) + 16;
    writeFileSync(join(dir, 'boundary-cut.bak'), bytes.subarray(0, firstRecordEnd));
    await expect(read(join(dir, 'boundary-cut.bak'))).rejects.toThrow(DAMAGED);
    const altered = Buffer.from(bytes);
    altered[80_000]! ^= 1;
    writeFileSync(join(dir, 'altered.bak'), altered);
    await expect(read(join(dir, 'altered.bak'))).rejects.toThrow(DAMAGED);
    writeFileSync(join(dir, 'longer.bak'), Buffer.concat([bytes, Buffer.from('x')]));
    await expect(read(join(dir, 'longer.bak'))).rejects.toThrow(DAMAGED);
    writeFileSync(join(dir, 'other.bak'), 'not a backup at all, just some text that is long enough to have a header');
    await expect(read(join(dir, 'other.bak'))).rejects.toThrow(NOT_AN_ARCHIVE);
  });
});
