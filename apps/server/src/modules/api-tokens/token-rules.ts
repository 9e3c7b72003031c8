import {
  cancelCryptoWithdrawal,
  cancelLimitOrder,
  createQuote,
  cryptoWithdraw,
  exportHistoryPath,
  generateDepositAddress,
  getBalances,
  getBankAccountDetails,
  getCryptoWithdrawInfo,
  getDepositBankInfo,
  getFiatWithdrawInfo,
  getMotd,
  getTradingTerms,
  getUser,
  listCoinHistory,
  listCryptoActivity,
  listCryptoDeposits,
  listFiatActivity,
  listHistory,
  listLimitOrders,
  listPendingTransactions,
  listLimitOrdersBySingularPath,
  listPositions,
  listWalletAddresses,
  listWhitelistedWallets,
  marketBuy,
  marketSell,
  placeInstantOrder,
  placeLimitOrder,
  resendWithdrawCode,
  sendVerifyWithdraw,
  verifyWithdraw,
  type Endpoint,
  exportCapitalGainsPath,
  getCapitalGains,
} from '@florin/contracts';
import type { TokenUse } from '../../http/auth.js';

/** The Fastify form of a route: `GET /api/v1/crypto/limit_order/:id/cancel`. */
export function routeKey(method: string, url: string): string {
  return `${method === 'HEAD' ? 'GET' : method} ${url.replace(/\{(\w+)\}/g, ':$1')}`;
}

const keyOf = (endpoint: Pick<Endpoint, 'method' | 'path'>) => routeKey(endpoint.method, endpoint.path);

/**
 * What an API token may do on the customer routes whose modules do not say it
 * themselves (RouteOptions.token does, for new routes). Every customer route
 * not named here, nor by its own `token`, refuses tokens: account, security,
 * whitelist, KYC and token settings, and fiat withdrawals, stay in the browser
 * (docs/decisions/052-api-tokens-and-public-api.md).
 */
export const TOKEN_RULES: ReadonlyMap<string, TokenUse> = new Map<string, TokenUse>([
  // READ: balances, history, orders, positions, terms and the account's read-only facts.
  [keyOf(getBalances), 'read'],
  [keyOf(listHistory), 'read'],
  [keyOf(listPendingTransactions), 'read'],
  [keyOf(listCoinHistory), 'read'],
  [routeKey('GET', exportHistoryPath), 'read'],
  [keyOf(getUser), 'read'],
  [keyOf(getMotd), 'read'],
  [keyOf(getBankAccountDetails), 'read'],
  [keyOf(getDepositBankInfo), 'read'],
  [keyOf(getFiatWithdrawInfo), 'read'],
  [keyOf(listFiatActivity), 'read'],
  [keyOf(listWalletAddresses), 'read'],
  [keyOf(generateDepositAddress), 'read'],
  [keyOf(listCryptoDeposits), 'read'],
  [keyOf(getCryptoWithdrawInfo), 'read'],
  [keyOf(listCryptoActivity), 'read'],
  [keyOf(listWhitelistedWallets), 'read'],
  [keyOf(getTradingTerms), 'read'],
  [keyOf(listLimitOrders), 'read'],
  [keyOf(listLimitOrdersBySingularPath), 'read'],
  [keyOf(listPositions), 'read'],
  [keyOf(getCapitalGains), 'read'],
  [routeKey('GET', exportCapitalGainsPath), 'read'],
  // TRADE: quoting (a quote is the first step of a trade), executing, and orders.
  [keyOf(createQuote), 'trade'],
  [keyOf(placeInstantOrder), 'trade'],
  [keyOf(marketBuy), 'trade'],
  [keyOf(marketSell), 'trade'],
  [keyOf(placeLimitOrder), 'trade'],
  [keyOf(cancelLimitOrder), 'trade'],
  // WITHDRAW: the crypto withdrawal's steps; WITHDRAW SAVED ADDRESS is held to saved addresses by the service.
  [keyOf(sendVerifyWithdraw), 'withdraw'],
  [keyOf(resendWithdrawCode), 'withdraw'],
  [keyOf(verifyWithdraw), 'withdraw'],
  [keyOf(cryptoWithdraw), 'withdraw'],
  [keyOf(cancelCryptoWithdrawal), 'withdraw'],
]);

/** Spec 002 §6: 1 READ, 2 WITHDRAW SAVED ADDRESS, 3 WITHDRAW ANY ADDRESS, 4 TRADE. Each reads too. */
export function isPermitted(permissionId: number, use: TokenUse): boolean {
  switch (use) {
    case 'read':
      return permissionId >= 1 && permissionId <= 4;
    case 'trade':
      return permissionId === 4;
    case 'withdraw':
      return permissionId === 2 || permissionId === 3;
  }
}

/** The OpenAPI page's words for a rule. */
export const TOKEN_USE_DESCRIPTIONS: Record<TokenUse | 'none', string> = {
  read: 'API tokens: any permission (READ, TRADE, WITHDRAW SAVED ADDRESS, WITHDRAW ANY ADDRESS).',
  trade: 'API tokens: TRADE only.',
  withdraw:
    'API tokens: WITHDRAW ANY ADDRESS, or WITHDRAW SAVED ADDRESS to a whitelisted address only; every withdrawal check applies.',
  none: 'API tokens: refused (sign in with a browser session).',
};
