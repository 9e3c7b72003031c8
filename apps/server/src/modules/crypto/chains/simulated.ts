import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { CryptoAsset } from '@florin/contracts';
import type { DB } from '../../../db/schema.js';
import type { ChainClient, ChainTransfer } from './types.js';

/**
 * The embedded default chain: heights and transactions live in the database,
 * so they survive restarts and every instance sees the same chain. Staff (and
 * the e2e fixtures) broadcast payments into the mempool, mine blocks and
 * reorganise a transaction away.
 */
export function createSimulatedChain(db: Kysely<DB>) {
  async function heightOf(asset: CryptoAsset, executor: Kysely<DB> = db): Promise<number> {
    const row = await executor
      .selectFrom('simulated_chain_heights')
      .select('height')
      .where('asset', '=', asset)
      .executeTakeFirst();
    return row?.height ?? 0;
  }

  const client: ChainClient = {
    name: 'simulated',
    async scan({ asset, cursor, confirmations }) {
      const height = await heightOf(asset);
      const after = cursor === null ? -1 : Number(cursor);
      const rows = await db
        .selectFrom('simulated_chain_transactions')
        .select(['txid', 'output', 'address', 'tag', 'amount', 'block_height'])
        .where('asset', '=', asset)
        .where('dropped_at', 'is', null)
        .where((eb) => eb.or([eb('block_height', 'is', null), eb('block_height', '>', after)]))
        .orderBy('id')
        .execute();
      const transfers: ChainTransfer[] = rows.map((row) => ({
        txid: row.txid,
        output: row.output,
        address: row.address,
        tag: row.tag,
        amount: BigInt(row.amount),
        confirmations: row.block_height === null ? 0 : height - row.block_height + 1,
      }));
      return { height, transfers, cursor: String(Math.max(-1, height - confirmations)), isComplete: true };
    },
  };

  return {
    client,
    heightOf,

    /** Puts a payment in the mempool; `executor` lets a withdrawal broadcast inside its own transaction. */
    async broadcast(
      input: {
        asset: CryptoAsset;
        address: string;
        tag: string | null;
        amount: bigint;
        txid?: string | null;
      },
      executor: Kysely<DB> = db,
    ) {
      const txid = input.txid ?? randomBytes(32).toString('hex');
      return executor
        .insertInto('simulated_chain_transactions')
        .values({
          asset: input.asset,
          txid,
          output: 0,
          address: input.address,
          tag: input.tag,
          amount: input.amount.toString(),
          block_height: null,
        })
        .returning(['asset', 'txid', 'output', 'address', 'tag', 'amount', 'block_height', 'dropped_at'])
        .executeTakeFirstOrThrow();
    },

    /** Mines `blocks` blocks: the mempool goes into the first. Returns the new height. */
    async mine(asset: CryptoAsset, blocks: number): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('simulated_chain_heights')
          .set({ height: sql<number>`height + ${blocks}` })
          .where('asset', '=', asset)
          .returning('height')
          .executeTakeFirstOrThrow();
        await trx
          .updateTable('simulated_chain_transactions')
          .set({ block_height: row.height - blocks + 1 })
          .where('asset', '=', asset)
          .where('block_height', 'is', null)
          .where('dropped_at', 'is', null)
          .execute();
        return row.height;
      });
    },

    /** A reorganisation that loses the transaction: it is no longer on the chain. */
    async drop(asset: CryptoAsset, txid: string): Promise<boolean> {
      const result = await db
        .updateTable('simulated_chain_transactions')
        .set({ dropped_at: new Date() })
        .where('asset', '=', asset)
        .where('txid', '=', txid)
        .where('dropped_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

export type SimulatedChain = ReturnType<typeof createSimulatedChain>;
