import { join } from 'node:path';
import type { Config } from '../config';
import { localDiskStorage, type Storage } from './storage';

/** Where a process keeps its files: the S3 bucket of S3_BUCKET, else DATA_DIR/files (the AWS SDK is loaded only for a bucket). */
export async function openStorage(config: Pick<Config, 'dataDir' | 's3'>): Promise<Storage> {
  if (!config.s3) return localDiskStorage(filesRootOf(config));
  const { s3Storage } = await import('./s3-storage');
  return s3Storage(config.s3);
}

export const filesRootOf = (config: Pick<Config, 'dataDir'>) => join(config.dataDir, 'files');
