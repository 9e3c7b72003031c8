import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import {
  AppError,
  UPGRADE_TEXTS,
  type PlatformUpgrade,
  type PlatformUpgradesQuery,
  type UpgradeWebhookPayload,
} from '@florin/contracts';
import type { DB } from '../../db/schema.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import { UPGRADE_WEBHOOK_SETTING, type UpgradeRepository, type UpgradeRow } from './repository.js';

/** The spec's chat notification must never hold an upgrade up for long. */
export const WEBHOOK_TIMEOUT_MS = 5_000;

export type UpgradeServiceDeps = {
  db: Kysely<DB>;
  repository: UpgradeRepository;
  /** Production accepts only https webhooks. */
  isProduction: boolean;
  log: FastifyBaseLogger;
  /** How the webhook is posted; tests keep the real one and point it at a loopback server. */
  fetch?: typeof fetch;
  timeoutMs?: number;
};

export type UpgradeService = ReturnType<typeof createUpgradeService>;

/** What KYC records and announces when a customer moves to the trading platform. */
export type UpgradeRecorder = Pick<UpgradeService, 'recordUpgrade' | 'notifyStaff'>;

function toUpgrade(row: UpgradeRow): PlatformUpgrade {
  return {
    id: Number(row.id),
    user: { id: row.user_id, first_name: row.first_name, last_name: row.last_name, email: row.email },
    from_platform: row.from_platform,
    to_platform: row.to_platform,
    created_at: row.created_at.toISOString(),
    webhook_status: row.webhook_status,
    webhook_attempts: row.webhook_attempts,
    webhook_error: row.webhook_error,
    webhook_at: row.webhook_at === null ? null : row.webhook_at.toISOString(),
  };
}

/** The host only: a chat webhook's path is its secret, and the audit log keeps no secrets. */
function hostOf(url: string | null): string | null {
  return url === null ? null : new URL(url).host;
}

function describeFailure(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError' || error.name === 'AbortError') return 'No answer within 5 seconds.';
    const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
    return (cause?.code ?? cause?.message ?? error.message).slice(0, 200);
  }
  return 'The request failed.';
}

/**
 * Upgrades to the trading platform (issue 9): the row each one leaves (in the
 * transaction that changes the customer), the staff chat webhook told after
 * commit, and the back office's list and webhook setting.
 */
export function createUpgradeService(deps: UpgradeServiceDeps) {
  const { db, repository, log } = deps;
  const post = deps.fetch ?? fetch;
  const timeoutMs = deps.timeoutMs ?? WEBHOOK_TIMEOUT_MS;

  async function deliver(row: UpgradeRow, url: string): Promise<string | null> {
    const payload: UpgradeWebhookPayload = {
      text: `${row.first_name} ${row.last_name} (${row.email}, customer ${row.user_id}) ${UPGRADE_TEXTS.webhookMessage}`,
      user_id: row.user_id,
      email: row.email,
      at: row.created_at.toISOString(),
    };
    try {
      const response = await post(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
        // A redirect could send the customer's e-mail somewhere nobody chose.
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body?.cancel();
      return response.ok ? null : `The webhook answered ${response.status}.`;
    } catch (error) {
      return describeFailure(error);
    }
  }

  return {
    /** Call inside the transaction that moves the customer; returns the row's id for notifyStaff. */
    recordUpgrade(
      trx: Kysely<DB>,
      upgrade: { userId: number; fromPlatform: number; toPlatform: number },
    ): Promise<string> {
      return repository.insertUpgrade(trx, upgrade);
    },

    /**
     * After commit: posts the upgrade to the webhook, if one is set, and
     * records how that went. Never throws: the upgrade has happened whatever
     * the chat does.
     */
    async notifyStaff(upgradeId: string): Promise<void> {
      try {
        const row = await repository.findUpgrade(upgradeId);
        if (!row) return;
        const url = await repository.findSetting(UPGRADE_WEBHOOK_SETTING);
        if (url === null) {
          await repository.recordWebhookOutcome(upgradeId, {
            status: 'skipped',
            error: null,
            attempted: false,
          });
          return;
        }
        const error = await deliver(row, url);
        if (error !== null) log.warn({ upgradeId, error }, 'upgrade webhook failed');
        await repository.recordWebhookOutcome(upgradeId, {
          status: error === null ? 'delivered' : 'failed',
          error,
          attempted: true,
        });
      } catch (error) {
        log.error({ err: error, upgradeId }, 'upgrade webhook could not be recorded');
      }
    },

    async listUpgrades(query: PlatformUpgradesQuery) {
      const [rows, total] = await Promise.all([
        repository.listUpgrades(query.skip, query.take),
        repository.countUpgrades(),
      ]);
      return { data: rows.map(toUpgrade), total, skip: query.skip, take: query.take };
    },

    async getWebhook() {
      return { data: { url: await repository.findSetting(UPGRADE_WEBHOOK_SETTING) } };
    },

    async setWebhook(actor: AuditActor, url: string | null) {
      if (url !== null && deps.isProduction && new URL(url).protocol !== 'https:') {
        throw new AppError('VALIDATION_FAILED', UPGRADE_TEXTS.webhookHttpsOnly, {
          url: [UPGRADE_TEXTS.webhookHttpsOnly],
        });
      }
      await db.transaction().execute(async (trx) => {
        const before = await repository.lockSetting(trx, UPGRADE_WEBHOOK_SETTING);
        await repository.saveSetting(trx, UPGRADE_WEBHOOK_SETTING, url);
        await recordAudit(trx, {
          ...actor,
          action: url === null ? 'upgrades.webhook_cleared' : 'upgrades.webhook_set',
          targetType: 'setting',
          targetId: UPGRADE_WEBHOOK_SETTING,
          before: { host: hostOf(before) },
          after: { host: hostOf(url) },
        });
      });
      return {
        data: { url },
        message: url === null ? UPGRADE_TEXTS.webhookCleared : UPGRADE_TEXTS.webhookSaved,
      };
    },
  };
}
