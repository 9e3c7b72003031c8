import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../db/index.js';
import { createTestDatabase } from '../../../test/database.js';
import { createBitcoinRpcClient } from './bitcoin-rpc.js';
import { createSimulatedChain, type SimulatedChain } from './simulated.js';
import { withdrawalWalletsFor } from './wallets.js';

describe('how an approved withdrawal leaves', () => {
  let database: Database;
  let simulated: SimulatedChain;
  beforeAll(async () => {
    database = await createTestDatabase();
    simulated = createSimulatedChain(database.db);
  });
  afterAll(async () => {
    await database.close();
  });

  const chains = () => ({
    BTC: createBitcoinRpcClient('http://user:secret@127.0.0.1:8332'),
    LTC: simulated.client,
    BCH: simulated.client,
    ETH: simulated.client,
    XRP: simulated.client,
  });

  it('outside production, a coin on the simulated chain is sent by its hot wallet and a real one from cold storage', () => {
    const wallets = withdrawalWalletsFor(chains(), simulated, { isProduction: false });
    expect(wallets.XRP.kind).toBe('simulated');
    expect(wallets.BTC.kind).toBe('cold_storage');
  });

  // The simulated hot wallet holds no coins: "sent" through it in production, a withdrawal would move nothing.
  it('in production, every coin is sent from cold storage, the simulated chain too', () => {
    const wallets = withdrawalWalletsFor(chains(), simulated, { isProduction: true });
    for (const wallet of Object.values(wallets)) expect(wallet.kind).toBe('cold_storage');
  });
});
