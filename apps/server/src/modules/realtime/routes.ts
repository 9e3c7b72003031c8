import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import { WS_PATH } from '@florin/contracts';
import { SESSION_COOKIE } from '../../http/auth.js';
import type { SessionStore } from '../auth/sessions.js';
import type { PriceHub } from './hub.js';

export type RealtimeRouteOptions = {
  hub: PriceHub;
  sessions: Pick<SessionStore, 'find'>;
  /** In production only pages served from PUBLIC_URL may open the socket (cross-site websocket hijacking). */
  allowedOrigin: string | null;
  maxConnectionsPerIp: number;
};

/** Client messages are a few hundred bytes; anything far bigger is not ours. */
const MAX_CLIENT_MESSAGE_BYTES = 16 * 1024;

/**
 * The websocket at /ws. Anonymous visitors may subscribe to prices (the
 * public price strip); a customer's session cookie, when sent, is read so
 * later user channels know who is connected.
 */
export async function registerRealtimeRoutes(
  app: FastifyInstance,
  options: RealtimeRouteOptions,
): Promise<void> {
  // Before the plugin's own preClose (which closes every socket without a code): on SIGTERM each client is told
  // 1001 "Server shutting down", and the web app reconnects through the load balancer to another instance.
  app.addHook('preClose', (done) => {
    options.hub.close();
    done();
  });
  await app.register(fastifyWebsocket, { options: { maxPayload: MAX_CLIENT_MESSAGE_BYTES } });
  const connectionsByIp = new Map<string, number>();

  app.get(
    WS_PATH,
    {
      websocket: true,
      config: { access: 'public' },
      // Refused before the upgrade, as plain HTTP answers a browser shows in its console.
      preValidation: async (request, reply) => {
        if (options.allowedOrigin !== null && request.headers.origin !== options.allowedOrigin) {
          return reply.code(403).send({ message: 'Origin not allowed.' });
        }
        if ((connectionsByIp.get(request.ip) ?? 0) >= options.maxConnectionsPerIp) {
          return reply.code(429).send({ message: 'Too many connections from this address.' });
        }
      },
    },
    async (socket, request) => {
      const ip = request.ip;
      connectionsByIp.set(ip, (connectionsByIp.get(ip) ?? 0) + 1);
      socket.on('close', () => {
        const remaining = (connectionsByIp.get(ip) ?? 1) - 1;
        if (remaining > 0) connectionsByIp.set(ip, remaining);
        else connectionsByIp.delete(ip);
      });
      // Accepted at once: ws drops messages that arrive before a listener is attached.
      const connection = options.hub.accept(socket);
      const token = request.cookies?.[SESSION_COOKIE];
      // Connecting is not activity: the app reconnects by itself, and its page load made requests that were.
      const session = token
        ? await options.sessions.find(token, { isAttended: false }).catch(() => null)
        : null;
      if (session) connection.identify(String(session.userId));
    },
  );
}
