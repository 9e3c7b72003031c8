import { ADMIN_TRADING_TEXTS, AppError, type AdminCurrency, type FiatCurrency } from '@florin/contracts';
import { formatAmount, type AssetCode } from '@florin/domain';
import { recordAudit, type AuditActor } from '../audit/service.js';
import type { CURRENCY_COLUMNS, CurrencyRow } from './admin-repository.js';
import { checkRevision, parseAmounts, refuse, withRevision, type TradingAdminDeps } from './admin-shared.js';
import type { Answer } from './shared.js';

function toCurrency(
  row: Pick<CurrencyRow, (typeof CURRENCY_COLUMNS)[number]>,
): Omit<AdminCurrency, 'revision'> {
  const asset = row.code as AssetCode;
  return {
    code: row.code as FiatCurrency,
    name: row.name,
    symbol: row.symbol,
    active: row.active,
    withdraw_min: formatAmount(BigInt(row.withdraw_min), asset),
    withdraw_fee: formatAmount(BigInt(row.withdraw_fee), asset),
    withdraw_fee_free_from:
      row.withdraw_fee_free_from === null ? null : formatAmount(BigInt(row.withdraw_fee_free_from), asset),
  };
}

/** Each fiat currency's withdrawal minimum and fee, as finance edits them. */
export function createCurrenciesAdmin(deps: TradingAdminDeps) {
  const { db, repository } = deps;

  return {
    async listCurrencies(): Promise<{ data: AdminCurrency[] }> {
      return { data: (await repository.listCurrencies()).map((row) => withRevision(toCurrency(row))) };
    },

    async updateCurrency(
      actor: AuditActor,
      code: FiatCurrency,
      body: {
        withdraw_min: string;
        withdraw_fee: string;
        withdraw_fee_free_from: string | null;
        revision: string;
      },
    ): Promise<Answer<AdminCurrency>> {
      const { revision, ...values } = body;
      const amounts = parseAmounts(code, values);
      const minimum = amounts.withdraw_min ?? 0n;
      const fee = amounts.withdraw_fee ?? 0n;
      if (fee > 0n && fee >= minimum) throw refuse('withdraw_fee', ADMIN_TRADING_TEXTS.feeNotBelowMin);
      if (amounts.withdraw_fee_free_from !== null && amounts.withdraw_fee_free_from < minimum)
        throw refuse('withdraw_fee_free_from', ADMIN_TRADING_TEXTS.feeFreeBelowMin);
      const after = await db.transaction().execute(async (trx) => {
        const before = await repository.lockCurrency(trx, code);
        if (!before) throw new AppError('NOT_FOUND');
        checkRevision(toCurrency(before), revision);
        const row = await repository.updateCurrency(trx, code, {
          withdraw_min: minimum.toString(),
          withdraw_fee: (amounts.withdraw_fee ?? 0n).toString(),
          withdraw_fee_free_from:
            amounts.withdraw_fee_free_from === null ? null : amounts.withdraw_fee_free_from.toString(),
        });
        await recordAudit(trx, {
          ...actor,
          action: 'trading.currency_updated',
          targetType: 'currency',
          targetId: code,
          before: toCurrency(before),
          after: toCurrency(row),
        });
        return row;
      });
      return { data: withRevision(toCurrency(after)), message: ADMIN_TRADING_TEXTS.currencySaved };
    },
  };
}
