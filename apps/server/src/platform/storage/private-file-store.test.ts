import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createTestApp, type TestApp } from '../../test/test-app';
import { png } from '../../test/images';
import { readAll } from './encrypted-files';
import { PublicImageStore, type PublicImagePurpose } from './public-image-store';
import { localDiskStorage } from './storage';

let t: TestApp;
const A = randomUUID();
const B = randomUUID();
const secret = 'Informe clínico de Begoña: ansiedad generalizada, GAD-7 = 14. '.repeat(50);

/** Every file under `dir`, recursively. */
const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('private file store', () => {
  it('keeps the bytes encrypted on disk and gives them back to their workspace only', async () => {
    const store = t.app.services.privateFiles;
    const id = await store.save({ workspaceId: A, purpose: 'invoice', contentType: 'application/pdf', data: Buffer.from(secret) });
    const onDisk = walk(join(t.config.dataDir, 'files', 'private', A));
    expect(onDisk).toHaveLength(1);
    const stored = readFileSync(onDisk[0]!);
    expect(stored.length).toBe(Buffer.byteLength(secret) + 44); // header (version, data key id, iv) and tag
    expect(stored.includes(Buffer.from('Begoña'))).toBe(false);
    expect(stored.includes(Buffer.from('ansiedad'))).toBe(false);

    const file = await store.read(A, id);
    expect(file).toMatchObject({ id, workspaceId: A, purpose: 'invoice', contentType: 'application/pdf', size: Buffer.byteLength(secret) });
    expect((await readAll(file!.stream)).toString()).toBe(secret);

    expect(await store.read(B, id)).toBeNull();
    expect(await store.read(A, randomUUID())).toBeNull();
    expect(await store.read(A, 'not-an-id')).toBeNull();
    expect(await store.delete(B, id)).toBe(false);
    expect(await store.read(A, id)).not.toBeNull();
  });

  it('stores streams and empty files, and deletes row and bytes', async () => {
    const store = t.app.services.privateFiles;
    const chunks = Array.from({ length: 40 }, (_, i) => Buffer.alloc(4096, i));
    const id = await store.save({ workspaceId: B, purpose: 'consent', contentType: 'application/pdf', data: Readable.from(chunks) });
    const file = await store.read(B, id);
    expect(file!.size).toBe(40 * 4096);
    expect((await readAll(file!.stream)).equals(Buffer.concat(chunks))).toBe(true);

    const empty = await store.save({ workspaceId: B, purpose: 'consent', contentType: 'text/plain', data: Buffer.alloc(0) });
    expect((await readAll((await store.read(B, empty))!.stream)).length).toBe(0);

    expect(await store.delete(B, id)).toBe(true);
    expect(await store.read(B, id)).toBeNull();
    expect(walk(join(t.config.dataDir, 'files', 'private', B))).toHaveLength(1);
  });

  it('fails a read of altered bytes instead of returning them', async () => {
    const store = t.app.services.privateFiles;
    const id = await store.save({ workspaceId: A, purpose: 'contract', contentType: 'text/plain', data: Buffer.from('firmado') });
    const path = walk(join(t.config.dataDir, 'files', 'private', A, 'contract'))[0]!;
    const bytes = readFileSync(path);
    bytes[30] = bytes[30]! ^ 1; // in the ciphertext: the stream fails at its end
    writeFileSync(path, bytes);
    await expect(readAll((await store.read(A, id))!.stream)).rejects.toThrow();
    bytes[30] = bytes[30]! ^ 1;
    bytes[14] = bytes[14]! ^ 1; // in the header's data key id: refused before any byte
    writeFileSync(path, bytes);
    await expect(store.read(A, id)).rejects.toThrow();
  });

  it('refuses a failing source, public purposes and odd names', async () => {
    const store = t.app.services.privateFiles;
    const failing = new Readable({
      read() {
        this.destroy(new Error('connection lost'));
      },
    });
    await expect(store.save({ workspaceId: A, purpose: 'invoice', contentType: 'application/pdf', data: failing })).rejects.toThrow(
      'connection lost',
    );
    for (const purpose of ['logo', 'picture', 'workspace-logo', '../x', 'Invoice', ''])
      await expect(store.save({ workspaceId: A, purpose, contentType: 'text/plain', data: Buffer.from('x') })).rejects.toThrow(/purpose/);
    await expect(
      store.save({ workspaceId: '../a', purpose: 'invoice', contentType: 'text/plain', data: Buffer.from('x') }),
    ).rejects.toThrow(/workspace/);
  });
});

describe('public images', () => {
  it('the public route serves public images and 404s for a private file id', async () => {
    const images = new PublicImageStore(t.app.services.database.db, localDiskStorage(join(t.config.dataDir, 'files')));
    const image = await images.save({ ownerUserId: randomUUID(), purpose: 'picture', contentType: 'image/png', data: png(4, 4) });
    const served = await t.get(`/api/v1/files/${image.id}`);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');

    const privateId = await t.app.services.privateFiles.save({
      workspaceId: A,
      purpose: 'invoice',
      contentType: 'image/png',
      data: png(4, 4),
    });
    const res = await t.get(`/api/v1/files/${privateId}`);
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('PNG');
    // Nor can the public store delete it.
    await images.delete(privateId);
    expect(await t.app.services.privateFiles.read(A, privateId)).not.toBeNull();
  });

  it('saves only public purposes and image types', async () => {
    const images = new PublicImageStore(t.app.services.database.db, localDiskStorage(join(t.config.dataDir, 'files')));
    const save = (purpose: string, contentType = 'image/png') =>
      images.save({
        ownerUserId: randomUUID(),
        purpose: purpose as PublicImagePurpose,
        contentType: contentType as 'image/png',
        data: png(2, 2),
      });
    await expect(save('invoice')).rejects.toThrow(/public image purpose/);
    await expect(save('logo', 'application/pdf')).rejects.toThrow(/public image type/);
  });
});
