/** A JSON-RPC call failed: the node answered an error, or not at all. */
export class JsonRpcError extends Error {
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message);
    this.name = 'JsonRpcError';
  }
}

export type JsonRpcCall = <T>(method: string, params?: unknown[]) => Promise<T>;

/**
 * A JSON-RPC client for `url` (credentials in the URL become Basic auth, as
 * bitcoind expects; fetch refuses them in the URL itself).
 */
export function createJsonRpc(
  url: string,
  options: { version?: '1.0' | '2.0'; timeoutMs?: number } = {},
): JsonRpcCall {
  const target = new URL(url);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (target.username || target.password) {
    const credentials = `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`;
    headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
    target.username = '';
    target.password = '';
  }
  let id = 0;
  return async <T>(method: string, params: unknown[] = []): Promise<T> => {
    id += 1;
    let response: Response;
    try {
      response = await fetch(target, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: options.version ?? '2.0', id, method, params }),
        signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
      });
    } catch (error) {
      throw new JsonRpcError(`${method}: the node did not answer (${(error as Error).message})`);
    }
    const text = await response.text();
    let body: { result?: T; error?: { code?: number; message?: string } | null };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new JsonRpcError(`${method}: HTTP ${response.status}, not JSON`);
    }
    if (body.error) throw new JsonRpcError(`${method}: ${body.error.message ?? 'error'}`, body.error.code);
    if (!response.ok) throw new JsonRpcError(`${method}: HTTP ${response.status}`);
    return body.result as T;
  };
}
