import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3Config } from '../platform/storage/s3-storage';

type S3rverServer = { run(): Promise<{ port: number }>; close(): Promise<void> };
type S3rverClass = new (o: Record<string, unknown>) => S3rverServer;

/**
 * s3rver (an S3 API on the local disk, npm) on a random loopback port with its own temporary folder and
 * one bucket: the S3 driver's tests run against it (no MinIO on this machine). Its default keys are S3RVER/S3RVER.
 */
export async function startS3rver(
  bucket = 'divan-test',
): Promise<{ config: S3Config; env: Record<string, string>; directory: string; close(): Promise<void> }> {
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;
  const directory = mkdtempSync(join(tmpdir(), 'divan-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const config: S3Config = {
    bucket,
    region: 'us-east-1',
    endpoint,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  };
  const env = {
    S3_BUCKET: bucket,
    S3_ENDPOINT: endpoint,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
  };
  return {
    config,
    env,
    directory,
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
