import { AppError, FIAT_TEXTS, type FiatBankSettings, type FiatCurrency } from '@florin/contracts';
import { parseAmount } from '@florin/domain';
import { recordAudit, type AuditActor } from '../audit/service.js';
import type { FiatSettingsRow } from './repository.js';
import { asCurrency, money, type Answer, type FiatServiceDeps } from './shared.js';

function toSettings(row: FiatSettingsRow): FiatBankSettings {
  return {
    currency: asCurrency(row.currency),
    account_name: row.account_name,
    account_number: row.account_number,
    sort_code: row.sort_code,
    bank_name: row.bank_name,
    iban: row.iban,
    bic: row.bic,
    second_approval_from: money(row.second_approval_from, row.currency),
    updated_at: row.updated_at.toISOString(),
  };
}

/** Florin's bank account per currency (what customers pay into) and the second-approval threshold. */
export function createSettings(deps: Pick<FiatServiceDeps, 'db' | 'repository'>) {
  const { db, repository } = deps;

  return {
    async listSettings(): Promise<FiatBankSettings[]> {
      return (await repository.listSettings()).map(toSettings);
    },

    async updateSettings(
      actor: AuditActor,
      currency: FiatCurrency,
      body: {
        account_name: string;
        account_number: string;
        sort_code: string;
        bank_name: string;
        iban: string;
        bic: string;
        second_approval_from: string;
      },
    ): Promise<Answer<FiatBankSettings>> {
      const row = await db.transaction().execute(async (trx) => {
        const before = await repository.findSettings(currency, trx);
        if (!before) throw new AppError('NOT_FOUND');
        const after = await repository.updateSettings(trx, currency, {
          ...body,
          second_approval_from: parseAmount(body.second_approval_from, currency).toString(),
          updated_by: actor.staffId,
        });
        await recordAudit(trx, {
          ...actor,
          action: 'fiat.settings_updated',
          targetType: 'fiat_bank_settings',
          targetId: currency,
          before: { ...toSettings(before), updated_at: undefined },
          after: { ...toSettings(after), updated_at: undefined },
        });
        return after;
      });
      return { data: toSettings(row), message: FIAT_TEXTS.settingsSaved };
    },
  };
}
