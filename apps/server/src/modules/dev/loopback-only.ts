import { isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { matchedRoute } from '../../http/matched-route.js';

/** 127.0.0.0/8, ::1, and IPv4 loopback written as IPv6 (::ffff:127.0.0.1): this machine only. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address || isIP(address) === 0) return false;
  const v4 = address.replace(/^::ffff:/i, '');
  return address === '::1' || (isIP(v4) === 4 && v4.startsWith('127.'));
}

/**
 * The /dev/ helpers fund any account and show every mail: outside production they answer only
 * callers on this machine, and anyone else finds nothing there, as in production. The socket's
 * address decides, never X-Forwarded-For, which any caller can write.
 */
export function keepDevRoutesToLoopback(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!matchedRoute(request)?.startsWith('/dev/')) return;
    if (isLoopbackAddress(request.socket.remoteAddress)) return;
    reply.callNotFound();
    return reply;
  });
}
