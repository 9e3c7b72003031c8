import type { FastifyInstance } from 'fastify';
import {
  exportHistoryPath,
  getBalances,
  HISTORY_CSV_FILENAME,
  listCoinHistory,
  listHistory,
  listPendingTransactions,
} from '@florin/contracts';
import { requireCustomer } from '../../http/auth.js';
import { registerRoute } from '../../http/route.js';
import type { PortfolioService } from './service.js';

/**
 * A customer's own balances and history. `user_id` in the balance query is
 * the spec's; it is ignored: every answer is the signed-in customer's.
 */
export function registerPortfolioRoutes(app: FastifyInstance, deps: { portfolio: PortfolioService }): void {
  const { portfolio } = deps;
  const userIdOf = (request: Parameters<typeof requireCustomer>[0]) =>
    String(requireCustomer(request).userId);

  registerRoute(app, getBalances, {
    access: 'customer',
    handler: async (request) => portfolio.balances(userIdOf(request)),
  });

  registerRoute(app, listHistory, {
    access: 'customer',
    handler: async (request) =>
      portfolio.history(userIdOf(request), {
        page: request.query.page,
        filter: request.query.filter,
        coinId: request.query.coin_id,
      }),
  });

  registerRoute(app, listPendingTransactions, {
    access: 'customer',
    handler: async (request) =>
      portfolio.pendingHistory(userIdOf(request), {
        filter: request.query.filter,
        coinId: request.query.coin_id,
      }),
  });

  registerRoute(app, listCoinHistory, {
    access: 'customer',
    handler: async (request) =>
      portfolio.history(
        userIdOf(request),
        { page: request.query.page, filter: [], coinId: request.query.coin },
        listCoinHistory.path,
      ),
  });

  app.get(exportHistoryPath, { config: { access: 'customer' } }, async (request, reply) => {
    const stream = portfolio.exportCsv(userIdOf(request));
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${HISTORY_CSV_FILENAME}"`)
      .send(stream);
  });
}
