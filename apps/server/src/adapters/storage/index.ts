import path from 'node:path';
import type { Config } from '../../config.js';
import type { FileStorage } from './file-storage.js';
import { createLocalStorage } from './local-storage.js';
import { createS3Storage } from './s3-storage.js';

export { isStorageKey, type FileStorage } from './file-storage.js';
export { createLocalStorage } from './local-storage.js';
export { createS3Storage, type S3StorageOptions } from './s3-storage.js';

/**
 * The bucket named by STORAGE_S3_URL (`scheme://host[:port]/bucket[/prefix]`),
 * else the folder DATA_DIR/uploads.
 */
export function createStorageFromConfig(config: Config): FileStorage {
  if (!config.STORAGE_S3_URL) return createLocalStorage(path.join(config.dataDir, 'uploads'));
  const url = new URL(config.STORAGE_S3_URL);
  const [bucket = '', ...prefix] = url.pathname.split('/').filter(Boolean);
  return createS3Storage({
    endpoint: url.origin,
    region: config.STORAGE_S3_REGION,
    bucket,
    prefix: prefix.join('/'),
    accessKeyId: config.STORAGE_S3_ACCESS_KEY_ID ?? '',
    secretAccessKey: config.STORAGE_S3_SECRET_ACCESS_KEY ?? '',
    forcePathStyle: !usesVirtualHostedBuckets(url.hostname, bucket),
  });
}

/**
 * AWS prefers the bucket in the host name; other services (MinIO, Ceph, …)
 * and bucket names with dots (which break the TLS wildcard) take it in the path.
 */
function usesVirtualHostedBuckets(hostname: string, bucket: string): boolean {
  return hostname.endsWith('.amazonaws.com') && /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/.test(bucket);
}
