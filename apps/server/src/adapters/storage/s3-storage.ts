import { createHash, createHmac } from 'node:crypto';
import { isStorageKey, newStorageKey, type FileStorage } from './file-storage.js';

export type S3StorageOptions = {
  /** The service's origin, e.g. `https://s3.eu-west-2.amazonaws.com` or `http://minio:9000`. */
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /**
   * Address the bucket in the path (`endpoint/bucket/key`), as MinIO and most
   * S3-compatible services expect, instead of in the host name
   * (`bucket.host/key`), which AWS prefers. Default: false.
   */
  forcePathStyle?: boolean;
  /** A folder inside the bucket for Florin's objects, e.g. `uploads`. */
  prefix?: string;
  /** Per request; a hung storage service must not hold an upload forever. Default: 30 s. */
  timeoutMs?: number;
  /** For tests that watch the requests. */
  fetch?: typeof fetch;
};

/**
 * Objects in an S3-compatible bucket, signed with AWS Signature Version 4
 * (the three calls needed do not justify the AWS SDK). The payload hash is
 * signed too, so the service refuses a body altered on the way.
 */
export function createS3Storage(options: S3StorageOptions): FileStorage {
  const endpoint = new URL(options.endpoint);
  const prefix = (options.prefix ?? '').replace(/^\/+|\/+$/g, '');
  const send = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 30_000;

  const objectUrl = (key: string): URL => {
    const objectKey = prefix ? `${prefix}/${key}` : key;
    const url = new URL(endpoint.origin);
    if (options.forcePathStyle) url.pathname = `/${encodePath(options.bucket)}/${encodePath(objectKey)}`;
    else {
      url.hostname = `${options.bucket}.${endpoint.hostname}`;
      url.pathname = `/${encodePath(objectKey)}`;
    }
    return url;
  };

  const request = async (
    method: 'PUT' | 'GET' | 'DELETE',
    key: string,
    body?: Buffer,
    contentType?: string,
  ) => {
    const url = objectUrl(key);
    const headers = signRequest({
      method,
      url,
      headers: contentType ? { 'content-type': contentType } : {},
      body: body ?? Buffer.alloc(0),
      region: options.region,
      accessKeyId: options.accessKeyId,
      secretAccessKey: options.secretAccessKey,
      now: new Date(),
    });
    return send(url, { method, headers, body, signal: AbortSignal.timeout(timeoutMs) });
  };

  return {
    async put(bytes, contentType) {
      const key = newStorageKey();
      const response = await request('PUT', key, bytes, contentType);
      if (!response.ok) throw await storageError('PUT', response);
      await response.body?.cancel();
      return key;
    },

    async get(key) {
      if (!isStorageKey(key)) return null;
      const response = await request('GET', key);
      if (response.status === 404) {
        await response.body?.cancel();
        return null;
      }
      if (!response.ok) throw await storageError('GET', response);
      return Buffer.from(await response.arrayBuffer());
    },

    async delete(key) {
      if (!isStorageKey(key)) return;
      const response = await request('DELETE', key);
      if (!response.ok && response.status !== 404) throw await storageError('DELETE', response);
      await response.body?.cancel();
    },
  };
}

/** The status and the service's error code, never the request's credentials. */
async function storageError(method: string, response: Response): Promise<Error> {
  const text = await response.text().catch(() => '');
  const code = /<Code>([^<]{1,100})<\/Code>/.exec(text)?.[1] ?? 'no error code';
  return new Error(`S3 ${method} failed: ${response.status} ${code}`);
}

export type SignableRequest = {
  method: string;
  url: URL;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: Buffer;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  now: Date;
};

/**
 * AWS Signature Version 4 for S3 (docs.aws.amazon.com, "Signature Version 4
 * signing process"): returns the headers to send, Authorization included.
 */
export function signRequest(request: SignableRequest): Record<string, string> {
  const amzDate = request.now.toISOString().replace(/[-:]|\.\d{3}/g, '');
  const date = amzDate.slice(0, 8);
  const payloadHash = sha256Hex(request.body);
  const headers: Record<string, string> = {
    ...request.headers,
    host: request.url.host,
    'x-amz-content-sha256': payloadHash,
    'x-amz-date': amzDate,
  };
  const names = Object.keys(headers).sort();
  const signedHeaders = names.join(';');
  const canonicalRequest = [
    request.method,
    request.url.pathname,
    '', // the object calls carry no query string
    names.map((name) => `${name}:${(headers[name] ?? '').trim().replace(/\s+/g, ' ')}\n`).join(''),
    signedHeaders,
    payloadHash,
  ].join('\n');
  const scope = `${date}/${request.region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = ['s3', 'aws4_request'].reduce(
    (key, part) => hmac(key, part),
    hmac(hmac(`AWS4${request.secretAccessKey}`, date), request.region),
  );
  const signature = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
  const { host: _host, ...toSend } = headers; // fetch sets Host itself, from the URL signed above
  return {
    ...toSend,
    authorization: `AWS4-HMAC-SHA256 Credential=${request.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
  };
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** RFC 3986 encoding of each path segment, as S3 signs it (slashes kept). */
function encodePath(value: string): string {
  return value
    .split('/')
    .map((segment) =>
      encodeURIComponent(segment).replace(
        /[!'()*]/g,
        (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
      ),
    )
    .join('/');
}
