import {
  AppError,
  assetOfCoinId,
  TERM_DEPOSIT_TEXTS,
  type AdminTermDepositOption,
  type CoinId,
} from '@florin/contracts';
import { formatAmount, parseAmount, type AssetCode } from '@florin/domain';
import { recordAudit, type AuditActor } from '../audit/service.js';
import type { OptionRow } from './repository.js';
import { asAsset, rateText, type TermDepositServiceDeps } from './shared.js';

/** Back office: the terms each coin can be locked for, their rates and limits. */
export function createOptionsAdmin(deps: TermDepositServiceDeps) {
  const { db, repository } = deps;

  function toAdminOption(row: OptionRow, live: bigint): AdminTermDepositOption {
    const asset = asAsset(row.asset);
    return {
      id: row.id,
      coin_id: row.coin_id as CoinId,
      no_days: row.no_days,
      interest_rate: rateText(row.interest_rate),
      active: row.active,
      min_amount: formatAmount(BigInt(row.amount_min), asset),
      max_amount: row.amount_max === null ? null : formatAmount(BigInt(row.amount_max), asset),
      total_cap: row.total_cap === null ? null : formatAmount(BigInt(row.total_cap), asset),
      total_live: formatAmount(live, asset),
    };
  }

  /** A back-office amount in the coin's units; more decimals than the coin has is a field error. */
  function adminAmount(text: string | null, asset: AssetCode, field: string): string | null {
    if (text === null) return null;
    try {
      return parseAmount(text, asset).toString();
    } catch {
      throw new AppError('VALIDATION_FAILED', undefined, { [field]: [TERM_DEPOSIT_TEXTS.optionAmount] });
    }
  }

  return {
    async listOptions(): Promise<{ data: AdminTermDepositOption[] }> {
      const [rows, totals] = await Promise.all([repository.listOptions(false), repository.liveTotals(db)]);
      return { data: rows.map((row) => toAdminOption(row, totals.get(row.id) ?? 0n)) };
    },

    async createOption(
      actor: AuditActor,
      body: {
        coin_id: CoinId;
        no_days: number;
        interest_rate: string;
        active: boolean;
        min_amount: string;
        max_amount: string | null;
        total_cap: string | null;
      },
    ): Promise<{ data: AdminTermDepositOption; message: string }> {
      const asset = assetOfCoinId(body.coin_id);
      const values = {
        asset,
        no_days: body.no_days,
        interest_rate: body.interest_rate,
        active: body.active,
        amount_min: adminAmount(body.min_amount, asset, 'min_amount') ?? '0',
        amount_max: adminAmount(body.max_amount, asset, 'max_amount'),
        total_cap: adminAmount(body.total_cap, asset, 'total_cap'),
      };
      const id = await db.transaction().execute(async (trx) => {
        const inserted = await repository.insertOption(trx, values);
        if (inserted === undefined)
          throw new AppError('VALIDATION_FAILED', undefined, { no_days: [TERM_DEPOSIT_TEXTS.optionExists] });
        await recordAudit(trx, {
          ...actor,
          action: 'term_deposit_option.created',
          targetType: 'term_deposit_option',
          targetId: inserted,
          before: null,
          after: { ...values },
        });
        return inserted;
      });
      const row = await repository.findOption(id);
      if (!row) throw new AppError('NOT_FOUND');
      return { data: toAdminOption(row, 0n), message: TERM_DEPOSIT_TEXTS.optionSaved };
    },

    async updateOption(
      actor: AuditActor,
      id: number,
      body: {
        no_days: number;
        interest_rate: string;
        active: boolean;
        min_amount: string;
        max_amount: string | null;
        total_cap: string | null;
      },
    ): Promise<{ data: AdminTermDepositOption; message: string }> {
      await db.transaction().execute(async (trx) => {
        if (!(await repository.lockOption(trx, id))) throw new AppError('NOT_FOUND');
        const before = await repository.findOption(id, trx);
        if (!before) throw new AppError('NOT_FOUND');
        const asset = asAsset(before.asset);
        if (await repository.isDaysTaken(trx, before.asset, body.no_days, id))
          throw new AppError('VALIDATION_FAILED', undefined, { no_days: [TERM_DEPOSIT_TEXTS.optionExists] });
        const values = {
          no_days: body.no_days,
          interest_rate: body.interest_rate,
          active: body.active,
          amount_min: adminAmount(body.min_amount, asset, 'min_amount') ?? '0',
          amount_max: adminAmount(body.max_amount, asset, 'max_amount'),
          total_cap: adminAmount(body.total_cap, asset, 'total_cap'),
        };
        await repository.updateOption(trx, id, values);
        await recordAudit(trx, {
          ...actor,
          action: 'term_deposit_option.updated',
          targetType: 'term_deposit_option',
          targetId: id,
          before: { ...before },
          after: { ...values },
        });
      });
      const row = await repository.findOption(id);
      if (!row) throw new AppError('NOT_FOUND');
      const totals = await repository.liveTotals(db, [id]);
      return { data: toAdminOption(row, totals.get(id) ?? 0n), message: TERM_DEPOSIT_TEXTS.optionSaved };
    },
  };
}
