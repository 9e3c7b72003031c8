import type { FastifyInstance } from 'fastify';
import { updateNotifications } from '@florin/contracts';
import { requireCustomer } from '../../http/auth.js';
import { registerRoute } from '../../http/route.js';
import type { AlertsService } from './service.js';

export function registerAlertsRoutes(app: FastifyInstance, deps: { alerts: AlertsService }): void {
  registerRoute(app, updateNotifications, {
    access: 'customer',
    handler: async (request) => {
      const { login_notifications, loginout_notifications, marketing_notifications, trade_notifications } =
        request.body;
      return deps.alerts.updateNotifications(requireCustomer(request).userId, request.params.id, {
        login_notifications,
        loginout_notifications,
        marketing_notifications,
        trade_notifications,
      });
    },
  });
}
