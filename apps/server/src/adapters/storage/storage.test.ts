import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import aws4 from 'aws4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import { createLocalStorage, createS3Storage, createStorageFromConfig, type FileStorage } from './index.js';

const REGION = 'eu-west-2';
const CREDENTIALS = { accessKeyId: 'AKIAFLORINTEST', secretAccessKey: 'test-secret-key/with+chars' };

type StoredObject = { body: Buffer; contentType: string | undefined };

/**
 * An in-memory, path-style S3 service that checks every request's Signature
 * Version 4 with an independent implementation (the aws4 package) and the
 * payload against its signed hash, answering 403 as S3 does when either is off.
 */
async function startFakeS3() {
  const objects = new Map<string, StoredObject>();
  const log = { verified: 0, refused: [] as string[] };

  const refusal = (response: http.ServerResponse, status: number, code: string) => {
    if (code !== 'NoSuchKey') log.refused.push(code);
    response.writeHead(status, { 'content-type': 'application/xml' });
    response.end(`<?xml version="1.0"?><Error><Code>${code}</Code><Message>refused</Message></Error>`);
  };

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const authorization = request.headers.authorization ?? '';
      const parsed =
        /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=[0-9a-f]{64}$/.exec(
          authorization,
        );
      const amzDate = String(request.headers['x-amz-date'] ?? '');
      if (!parsed || parsed[1] !== CREDENTIALS.accessKeyId || parsed[3] !== REGION)
        return refusal(response, 403, 'InvalidAccessKeyId');
      const signedHeaders = (parsed[4] ?? '').split(';');
      if (!['host', 'x-amz-content-sha256', 'x-amz-date'].every((name) => signedHeaders.includes(name)))
        return refusal(response, 403, 'AccessDenied');
      const signedAt = Date.parse(
        amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'),
      );
      if (!amzDate.startsWith(parsed[2] ?? '') || !(Math.abs(Date.now() - signedAt) < 15 * 60_000))
        return refusal(response, 403, 'RequestTimeTooSkewed');
      if (createHash('sha256').update(body).digest('hex') !== request.headers['x-amz-content-sha256'])
        return refusal(response, 400, 'XAmzContentSHA256Mismatch');
      const expected = aws4.sign(
        {
          service: 's3',
          region: REGION,
          method: request.method,
          path: request.url,
          headers: Object.fromEntries(
            signedHeaders.map((name) => [name, String(request.headers[name] ?? '')]),
          ),
        },
        CREDENTIALS,
      );
      if (expected.headers?.Authorization !== authorization)
        return refusal(response, 403, 'SignatureDoesNotMatch');
      log.verified += 1;

      const objectPath = decodeURIComponent(request.url ?? '');
      if (request.method === 'PUT') {
        objects.set(objectPath, { body, contentType: request.headers['content-type'] });
        response.writeHead(200, { etag: '"etag"' }).end();
      } else if (request.method === 'GET') {
        const object = objects.get(objectPath);
        if (!object) return refusal(response, 404, 'NoSuchKey');
        response
          .writeHead(200, { 'content-type': object.contentType ?? 'binary/octet-stream' })
          .end(object.body);
      } else if (request.method === 'DELETE') {
        objects.delete(objectPath);
        response.writeHead(204).end();
      } else refusal(response, 405, 'MethodNotAllowed');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    objects,
    log,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let s3: Awaited<ReturnType<typeof startFakeS3>>;
let tempRoot: string;

beforeAll(async () => {
  s3 = await startFakeS3();
  tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'florin-storage-'));
});

afterAll(async () => {
  await s3.close();
  fs.rmSync(tempRoot, { recursive: true, force: true });
});

function s3Storage(overrides: Partial<Parameters<typeof createS3Storage>[0]> = {}): FileStorage {
  return createS3Storage({
    endpoint: s3.endpoint,
    region: REGION,
    bucket: 'florin-documents',
    forcePathStyle: true,
    ...CREDENTIALS,
    ...overrides,
  });
}

const adapters: Array<[string, () => FileStorage]> = [
  [
    'local folder',
    () => createLocalStorage(path.join(tempRoot, `uploads-${randomBytes(4).toString('hex')}`)),
  ],
  ['S3-compatible bucket', () => s3Storage()],
];

describe.each(adapters)('file storage in a %s', (_name, create) => {
  it('gives back exactly the bytes it stored', async () => {
    const storage = create();
    const everyByte = Buffer.from(Array.from({ length: 256 }, (_, index) => index));
    const large = randomBytes(3 * 1024 * 1024);
    const keys = [await storage.put(everyByte, 'image/png'), await storage.put(large, 'application/pdf')];
    expect((await storage.get(keys[0] ?? ''))?.equals(everyByte)).toBe(true);
    expect((await storage.get(keys[1] ?? ''))?.equals(large)).toBe(true);
  });

  it('stores each file under a new random 256-bit key', async () => {
    const storage = create();
    const same = Buffer.from('same content');
    const keys = await Promise.all([1, 2, 3].map(() => storage.put(same, 'image/jpeg')));
    expect(new Set(keys).size).toBe(3);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{64}$/);
  });

  it('answers null for a key it never gave out', async () => {
    const storage = create();
    expect(await storage.get(randomBytes(32).toString('hex'))).toBeNull();
  });

  it('treats a key that is not one of its own as unknown', async () => {
    const storage = create();
    for (const key of ['../../etc/passwd', '/etc/passwd', '', '.', 'A'.repeat(64), `${'a'.repeat(63)}/`])
      expect(await storage.get(key)).toBeNull();
    await expect(storage.delete('../../etc/passwd')).resolves.toBeUndefined();
  });

  it('forgets a deleted file, and deleting it again is harmless', async () => {
    const storage = create();
    const key = await storage.put(Buffer.from('to be deleted'), 'application/pdf');
    await storage.delete(key);
    expect(await storage.get(key)).toBeNull();
    await expect(storage.delete(key)).resolves.toBeUndefined();
  });
});

describe('local folder storage', () => {
  it('keeps documents readable by the server user alone, with no temporary files left', async () => {
    const folder = path.join(tempRoot, 'private', 'uploads');
    const storage = createLocalStorage(folder);
    const key = await storage.put(Buffer.from('passport scan'), 'image/jpeg');
    expect(fs.statSync(folder).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(folder, key)).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(folder)).toEqual([key]);
  });

  it('tightens an existing folder that others could read', async () => {
    const folder = path.join(tempRoot, 'loose');
    fs.mkdirSync(folder, { mode: 0o755 });
    fs.chmodSync(folder, 0o755);
    await createLocalStorage(folder).put(Buffer.from('x'), 'image/png');
    expect(fs.statSync(folder).mode & 0o777).toBe(0o700);
  });

  it('never reads a file outside its folder, whatever key it is given', async () => {
    const folder = path.join(tempRoot, 'inner', 'uploads');
    const storage = createLocalStorage(folder);
    await storage.put(Buffer.from('x'), 'image/png');
    const outside = 'b'.repeat(64);
    fs.writeFileSync(path.join(tempRoot, 'inner', outside), 'secret next door');
    expect(await storage.get(`../${outside}`)).toBeNull();
    await storage.delete(`../${outside}`);
    expect(fs.existsSync(path.join(tempRoot, 'inner', outside))).toBe(true);
  });
});

describe('S3-compatible storage', () => {
  it('signs every request so the service accepts it, and stores the content type path-style', async () => {
    const before = s3.log.verified;
    const storage = s3Storage({ prefix: 'kyc/documents' });
    const key = await storage.put(Buffer.from('%PDF-1.7'), 'application/pdf');
    await storage.get(key);
    await storage.delete(key);
    expect(s3.log.verified - before).toBe(3);
    expect(s3.log.refused).toEqual([]);
    const again = await storage.put(Buffer.from('%PDF-1.7'), 'application/pdf');
    expect(s3.objects.get(`/florin-documents/kyc/documents/${again}`)).toEqual({
      body: Buffer.from('%PDF-1.7'),
      contentType: 'application/pdf',
    });
  });

  it('fails loudly, without the secret in the message, when the service refuses the signature', async () => {
    const storage = s3Storage({ secretAccessKey: 'not-the-secret' });
    const failure = await storage.put(Buffer.from('x'), 'image/png').then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).toBe('S3 PUT failed: 403 SignatureDoesNotMatch');
    expect(s3.log.refused).toContain('SignatureDoesNotMatch');
    await expect(storage.get('c'.repeat(64))).rejects.toThrow('S3 GET failed: 403 SignatureDoesNotMatch');
    s3.log.refused.length = 0;
  });

  it('addresses the bucket in the host name unless told to use the path', async () => {
    const urls: string[] = [];
    const storage = createS3Storage({
      endpoint: 'https://s3.eu-west-2.amazonaws.com',
      region: REGION,
      bucket: 'florin-documents',
      ...CREDENTIALS,
      fetch: (input) => {
        urls.push(input instanceof Request ? input.url : input.toString());
        return Promise.resolve(new Response(null, { status: 200 }));
      },
    });
    const key = await storage.put(Buffer.from('x'), 'image/png');
    expect(urls).toEqual([`https://florin-documents.s3.eu-west-2.amazonaws.com/${key}`]);
  });
});

describe('storage from configuration', () => {
  it('uses the folder DATA_DIR/uploads when no bucket is configured', async () => {
    const dataDir = path.join(tempRoot, 'data');
    const storage = createStorageFromConfig(loadConfig({ DATA_DIR: dataDir }));
    const key = await storage.put(Buffer.from('scan'), 'image/png');
    expect(fs.readFileSync(path.join(dataDir, 'uploads', key), 'utf8')).toBe('scan');
  });

  it('uses the bucket and prefix of STORAGE_S3_URL', async () => {
    const storage = createStorageFromConfig(
      loadConfig({
        STORAGE_S3_URL: `${s3.endpoint}/florin-documents/uploads`,
        STORAGE_S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
        STORAGE_S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      }),
    );
    const key = await storage.put(Buffer.from('scan'), 'image/jpeg');
    expect(s3.objects.get(`/florin-documents/uploads/${key}`)?.body.toString()).toBe('scan');
    expect((await storage.get(key))?.toString()).toBe('scan');
  });

  it('refuses to start with a bucket but no credentials, or a URL without a bucket', () => {
    expect(() => loadConfig({ STORAGE_S3_URL: 'http://minio:9000/bucket' })).toThrow(ConfigError);
    expect(() => loadConfig({ STORAGE_S3_URL: 'http://minio:9000/bucket' })).toThrow(
      /STORAGE_S3_ACCESS_KEY_ID/,
    );
    expect(() =>
      loadConfig({
        STORAGE_S3_URL: 'http://minio:9000',
        STORAGE_S3_ACCESS_KEY_ID: 'a',
        STORAGE_S3_SECRET_ACCESS_KEY: 'b',
      }),
    ).toThrow(/STORAGE_S3_URL: must name the bucket/);
    expect(loadConfig({}).STORAGE_S3_REGION).toBe('eu-west-2');
  });
});
