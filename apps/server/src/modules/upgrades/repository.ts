import { sql, type Kysely } from 'kysely';
import type { DB, PlatformUpgradeWebhookStatus } from '../../db/schema.js';

export const UPGRADE_WEBHOOK_SETTING = 'upgrade_webhook_url';

const UPGRADE_COLUMNS = [
  'u.id',
  'u.user_id',
  'u.from_platform',
  'u.to_platform',
  'u.webhook_status',
  'u.webhook_attempts',
  'u.webhook_error',
  'u.webhook_at',
  'u.created_at',
  'c.first_name',
  'c.last_name',
  'c.email',
] as const;

/** The only place the upgrades module builds queries. */
export function createUpgradeRepository(db: Kysely<DB>) {
  return {
    async insertUpgrade(
      executor: Kysely<DB>,
      values: { userId: number; fromPlatform: number; toPlatform: number },
    ): Promise<string> {
      const row = await executor
        .insertInto('platform_upgrades')
        .values({
          user_id: values.userId,
          from_platform: values.fromPlatform,
          to_platform: values.toPlatform,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    findUpgrade(id: string) {
      return db
        .selectFrom('platform_upgrades as u')
        .innerJoin('users as c', 'c.id', 'u.user_id')
        .select(UPGRADE_COLUMNS)
        .where('u.id', '=', id)
        .executeTakeFirst();
    },

    listUpgrades(skip: number, take: number) {
      return db
        .selectFrom('platform_upgrades as u')
        .innerJoin('users as c', 'c.id', 'u.user_id')
        .select(UPGRADE_COLUMNS)
        .orderBy('u.seq', 'desc')
        .offset(skip)
        .limit(take)
        .execute();
    },

    async countUpgrades(): Promise<number> {
      const row = await db
        .selectFrom('platform_upgrades')
        .select((eb) => eb.fn.countAll<string>().as('total'))
        .executeTakeFirstOrThrow();
      return Number(row.total);
    },

    /** One delivery attempt's outcome; attempts count every try. */
    async recordWebhookOutcome(
      id: string,
      outcome: { status: PlatformUpgradeWebhookStatus; error: string | null; attempted: boolean },
    ): Promise<void> {
      await db
        .updateTable('platform_upgrades')
        .set({
          webhook_status: outcome.status,
          webhook_error: outcome.error,
          webhook_at: new Date(),
          webhook_attempts: outcome.attempted
            ? sql<number>`webhook_attempts + 1`
            : sql<number>`webhook_attempts`,
        })
        .where('id', '=', id)
        .execute();
    },

    async findSetting(key: string, executor: Kysely<DB> = db): Promise<string | null> {
      const row = await executor
        .selectFrom('app_settings')
        .select('value')
        .where('key', '=', key)
        .executeTakeFirst();
      return row?.value ?? null;
    },

    /** The current value, locked until the transaction ends (two superadmins saving at once queue). */
    async lockSetting(executor: Kysely<DB>, key: string): Promise<string | null> {
      const row = await executor
        .selectFrom('app_settings')
        .select('value')
        .where('key', '=', key)
        .forUpdate()
        .executeTakeFirst();
      return row?.value ?? null;
    },

    async saveSetting(executor: Kysely<DB>, key: string, value: string | null): Promise<void> {
      if (value === null) {
        await executor.deleteFrom('app_settings').where('key', '=', key).execute();
        return;
      }
      await executor
        .insertInto('app_settings')
        .values({ key, value })
        .onConflict((conflict) => conflict.column('key').doUpdateSet({ value, updated_at: new Date() }))
        .execute();
    },
  };
}

export type UpgradeRepository = ReturnType<typeof createUpgradeRepository>;
export type UpgradeRow = NonNullable<Awaited<ReturnType<UpgradeRepository['findUpgrade']>>>;
