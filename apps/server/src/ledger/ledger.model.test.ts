import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AppError } from '@florin/contracts';
import type { Database } from '../db/index.js';
import { createTestDatabase } from '../test/database.js';
import { available, createTestUser, expectLedgerToHold } from '../test/ledger.js';
import { seedOf, volumeOf } from '../test/volume.js';
import { createLedger, type HoldInput, type JournalInput, type Ledger } from './index.js';

/**
 * Random sequences of every ledger operation, overdrafts and repeated keys
 * included, against a model of bigint balances and holds. After every step
 * the customer accounts and holds in the database must equal the model; after
 * every run the invariant checker must pass.
 *
 * LEDGER_MODEL_RUNS runs (50 in `npm test`, 200 in `npm run test:deep`) from
 * LEDGER_MODEL_SEED, printed; a failure also prints fast-check's path, and
 * LEDGER_MODEL_SEED with LEDGER_MODEL_PATH starts the replay at the failing run.
 */
const RUNS = volumeOf('LEDGER_MODEL_RUNS', 50);
const SEED = seedOf('LEDGER_MODEL_SEED');
const REPLAY_PATH = process.env.LEDGER_MODEL_PATH || undefined;

type Asset = 'GBP' | 'BTC';
const ASSETS: Asset[] = ['GBP', 'BTC'];
const USERS_PER_RUN = 3;

type HoldModel = {
  user: number;
  asset: Asset;
  amount: bigint;
  remaining: bigint;
  status: 'pending' | 'posted' | 'voided' | 'expired';
  spent: boolean;
};

type Model = {
  users: string[];
  posted: Map<string, bigint>;
  held: Map<string, bigint>;
  holds: HoldModel[];
  /** Requests that succeeded, to be sent again (same key) later. */
  sent: JournalInput[];
  keyPrefix: string;
  keys: number;
};

type Real = { ledger: Ledger; database: Database; holdIds: string[] };

const slot = (user: number, asset: Asset) => `${user}:${asset}`;
const get = (map: Map<string, bigint>, key: string) => map.get(key) ?? 0n;
const nextKey = (model: Model) => `${model.keyPrefix}:${(model.keys += 1)}`;
const houseOf = (asset: Asset) => (asset === 'GBP' ? ('bank' as const) : ('custody' as const));

function availableIn(model: Model, user: number, asset: Asset): bigint {
  return get(model.posted, slot(user, asset)) - get(model.held, slot(user, asset));
}

function add(model: Model, user: number, asset: Asset, amount: bigint): void {
  model.posted.set(slot(user, asset), get(model.posted, slot(user, asset)) + amount);
}

/** How often each path ran, so a generator that stops reaching one fails the test. */
const seen = new Map<string, number>();
const count = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);

async function expectCode(promise: Promise<unknown>, code: AppError['code']): Promise<void> {
  count(`refused ${code}`);
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error, `expected ${code}`).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
}

/** Posts a journal, expecting success only when the model says the payer can afford it. */
async function postExpecting(
  model: Model,
  real: Real,
  input: JournalInput,
  affordable: boolean,
  apply: () => void,
): Promise<void> {
  if (!affordable) {
    await expectCode(real.ledger.postJournal(real.database.db, input), 'INSUFFICIENT_FUNDS');
    return;
  }
  const result = await real.ledger.postJournal(real.database.db, input);
  expect(result.replayed).toBe(false);
  apply();
  model.sent.push(input);
}

class Deposit implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly user: number,
    readonly asset: Asset,
    readonly amount: bigint,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const input: JournalInput = {
      idempotencyKey: nextKey(model),
      kind: this.asset === 'GBP' ? 'fiat_deposit' : 'crypto_deposit',
      postings: [
        { account: { asset: this.asset, kind: houseOf(this.asset) }, amount: -this.amount },
        { account: available(model.users[this.user] as string, this.asset), amount: this.amount },
      ],
    };
    await postExpecting(model, real, input, true, () => add(model, this.user, this.asset, this.amount));
  }
  toString = () => `Deposit(u${this.user}, ${this.amount} ${this.asset})`;
}

class Transfer implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly from: number,
    readonly offset: number,
    readonly asset: Asset,
    readonly amount: bigint,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const to = (this.from + 1 + this.offset) % USERS_PER_RUN;
    const input: JournalInput = {
      idempotencyKey: nextKey(model),
      kind: 'adjustment',
      postings: [
        { account: available(model.users[this.from] as string, this.asset), amount: -this.amount },
        { account: available(model.users[to] as string, this.asset), amount: this.amount },
      ],
    };
    await postExpecting(model, real, input, availableIn(model, this.from, this.asset) >= this.amount, () => {
      add(model, this.from, this.asset, -this.amount);
      add(model, to, this.asset, this.amount);
    });
  }
  toString = () => `Transfer(u${this.from} → +${this.offset + 1}, ${this.amount} ${this.asset})`;
}

class Trade implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly user: number,
    readonly side: 'buy' | 'sell',
    readonly cost: bigint,
    readonly fee: bigint,
    readonly quantity: bigint,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const user = model.users[this.user] as string;
    const buy = this.side === 'buy';
    const gbpChange = buy ? -(this.cost + this.fee) : this.cost - this.fee;
    const btcChange = buy ? this.quantity : -this.quantity;
    const input: JournalInput = {
      idempotencyKey: nextKey(model),
      kind: 'trade',
      metadata: { side: this.side },
      postings: [
        { account: available(user, 'GBP'), amount: gbpChange },
        { account: { asset: 'GBP', kind: 'inventory' }, amount: buy ? this.cost : -this.cost },
        { account: { asset: 'GBP', kind: 'fee_revenue' }, amount: this.fee },
        { account: { asset: 'BTC', kind: 'inventory' }, amount: -btcChange },
        { account: available(user, 'BTC'), amount: btcChange },
      ],
    };
    const affordable = buy
      ? availableIn(model, this.user, 'GBP') >= this.cost + this.fee
      : availableIn(model, this.user, 'BTC') >= this.quantity;
    await postExpecting(model, real, input, affordable, () => {
      add(model, this.user, 'GBP', gbpChange);
      add(model, this.user, 'BTC', btcChange);
    });
  }
  toString = () => `Trade(u${this.user} ${this.side} ${this.quantity} BTC for ${this.cost}+${this.fee})`;
}

class PlaceHold implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly user: number,
    readonly asset: Asset,
    readonly amount: bigint,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const request: HoldInput = {
      idempotencyKey: nextKey(model),
      account: available(model.users[this.user] as string, this.asset),
      amount: this.amount,
      reason: 'fiat_withdrawal',
    };
    if (availableIn(model, this.user, this.asset) < this.amount) {
      await expectCode(real.ledger.placeHold(real.database.db, request), 'INSUFFICIENT_FUNDS');
      return;
    }
    const { holdId } = await real.ledger.placeHold(real.database.db, request);
    expect((await real.ledger.placeHold(real.database.db, request)).replayed).toBe(true);
    real.holdIds.push(holdId);
    model.holds.push({
      user: this.user,
      asset: this.asset,
      amount: this.amount,
      remaining: this.amount,
      status: 'pending',
      spent: false,
    });
    const key = slot(this.user, this.asset);
    model.held.set(key, get(model.held, key) + this.amount);
  }
  toString = () => `PlaceHold(u${this.user}, ${this.amount} ${this.asset})`;
}

class PostHold implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly pick: number,
    readonly percent: bigint,
    readonly releaseRest: boolean,
  ) {}
  check = (model: Readonly<Model>) => model.holds.length > 0;
  async run(model: Model, real: Real) {
    const index = this.pick % model.holds.length;
    const hold = model.holds[index] as HoldModel;
    const user = model.users[hold.user] as string;
    const amount = hold.remaining > 0n ? (hold.remaining * this.percent) / 100n || 1n : 1n;
    const input = {
      holdId: real.holdIds[index] as string,
      idempotencyKey: nextKey(model),
      kind: 'limit_order_fill' as const,
      amount,
      releaseRest: this.releaseRest,
      postings: [
        { account: available(user, hold.asset), amount: -amount },
        { account: { asset: hold.asset, kind: 'inventory' as const }, amount },
      ],
    };
    if (hold.status !== 'pending') {
      await expectCode(real.ledger.postHold(real.database.db, input), 'CONFLICT');
      return;
    }
    await real.ledger.postHold(real.database.db, input);
    const released = this.releaseRest ? hold.remaining - amount : 0n;
    hold.remaining -= amount + released;
    hold.spent = true;
    if (hold.remaining === 0n) hold.status = 'posted';
    add(model, hold.user, hold.asset, -amount);
    const key = slot(hold.user, hold.asset);
    model.held.set(key, get(model.held, key) - amount - released);
  }
  toString = () => `PostHold(#${this.pick}, ${this.percent}%${this.releaseRest ? ', release rest' : ''})`;
}

/**
 * Several holds posted in one batch (the fill engine's path): each spends part
 * of its hold and gets the other asset from the house in the same journal, so
 * one customer's accounts move in several journals of the batch. A batch
 * naming a resolved hold is refused whole.
 */
class PostHolds implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly picks: number[],
    readonly percent: bigint,
  ) {}
  check = (model: Readonly<Model>) => model.holds.length > 0;
  async run(model: Model, real: Real) {
    const indexes = [...new Set(this.picks.map((pick) => pick % model.holds.length))];
    const plan = indexes.map((index) => {
      const hold = model.holds[index] as HoldModel;
      const user = model.users[hold.user] as string;
      const amount = hold.remaining > 0n ? (hold.remaining * this.percent) / 100n || 1n : 1n;
      const other: Asset = hold.asset === 'GBP' ? 'BTC' : 'GBP';
      return {
        index,
        hold,
        amount,
        other,
        input: {
          holdId: real.holdIds[index] as string,
          idempotencyKey: nextKey(model),
          kind: 'limit_order_fill' as const,
          amount,
          releaseRest: true,
          postings: [
            { account: available(user, hold.asset), amount: -amount },
            { account: { asset: hold.asset, kind: 'inventory' as const }, amount },
            { account: { asset: other, kind: 'inventory' as const }, amount: -amount },
            { account: available(user, other), amount },
          ],
        },
      };
    });
    const inputs = plan.map((step) => step.input);
    if (plan.some((step) => step.hold.status !== 'pending')) {
      await expectCode(real.ledger.postHolds(real.database.db, inputs), 'CONFLICT');
      return;
    }
    const results = await real.ledger.postHolds(real.database.db, inputs);
    expect(results.map((result) => result.replayed)).toEqual(plan.map(() => false));
    for (const { hold, amount, other } of plan) {
      const key = slot(hold.user, hold.asset);
      model.held.set(key, get(model.held, key) - hold.remaining);
      add(model, hold.user, hold.asset, -amount);
      add(model, hold.user, other, amount);
      hold.remaining = 0n;
      hold.spent = true;
      hold.status = 'posted';
    }
    // The same batch again (a retried pass) replays every journal and moves nothing.
    const again = await real.ledger.postHolds(real.database.db, inputs);
    expect(again).toEqual(results.map((result) => ({ ...result, replayed: true })));
  }
  toString = () => `PostHolds([${this.picks.join(', ')}], ${this.percent}%)`;
}

class ReleaseHold implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly pick: number,
    readonly outcome: 'voided' | 'expired',
  ) {}
  check = (model: Readonly<Model>) => model.holds.length > 0;
  async run(model: Model, real: Real) {
    const index = this.pick % model.holds.length;
    const hold = model.holds[index] as HoldModel;
    const request = { holdId: real.holdIds[index] as string, outcome: this.outcome };
    if (hold.status !== 'pending') {
      if (hold.status === this.outcome) {
        expect((await real.ledger.releaseHold(real.database.db, request)).replayed).toBe(true);
      } else {
        await expectCode(real.ledger.releaseHold(real.database.db, request), 'CONFLICT');
      }
      return;
    }
    const result = await real.ledger.releaseHold(real.database.db, request);
    const status = hold.spent ? 'posted' : this.outcome;
    expect(result).toEqual({ status, released: hold.remaining, replayed: false });
    const key = slot(hold.user, hold.asset);
    model.held.set(key, get(model.held, key) - hold.remaining);
    hold.remaining = 0n;
    hold.status = status;
  }
  toString = () => `ReleaseHold(#${this.pick}, ${this.outcome})`;
}

class Replay implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly pick: number,
    readonly tamper: boolean,
  ) {}
  check = (model: Readonly<Model>) => model.sent.length > 0;
  async run(model: Model, real: Real) {
    const input = model.sent[this.pick % model.sent.length] as JournalInput;
    if (!this.tamper) {
      expect((await real.ledger.postJournal(real.database.db, input)).replayed).toBe(true);
      return;
    }
    const [first, ...rest] = input.postings;
    const [second, ...others] = rest;
    const changed: JournalInput = {
      ...input,
      postings: [
        { ...first!, amount: first!.amount + (first!.amount > 0n ? 1n : -1n) },
        { ...second!, amount: second!.amount + (first!.amount > 0n ? -1n : 1n) },
        ...others,
      ],
    };
    await expectCode(real.ledger.postJournal(real.database.db, changed), 'IDEMPOTENCY_CONFLICT');
  }
  toString = () => `Replay(#${this.pick}${this.tamper ? ', changed' : ''})`;
}

const user = fc.integer({ min: 0, max: USERS_PER_RUN - 1 });
const asset = fc.constantFrom(...ASSETS);
const amount = fc.bigInt({ min: 1n, max: 20_000n });

const commands = [
  fc.tuple(user, asset, amount).map(([u, a, n]) => new Deposit(u, a, n)),
  fc
    .tuple(user, fc.integer({ min: 0, max: 1 }), asset, amount)
    .map(([u, o, a, n]) => new Transfer(u, o, a, n)),
  fc
    .tuple(
      user,
      fc.constantFrom('buy' as const, 'sell' as const),
      amount,
      fc.bigInt({ min: 1n, max: 99n }),
      amount,
    )
    .map(([u, side, cost, fee, qty]) => new Trade(u, side, cost + 100n, fee, qty)),
  fc.tuple(user, asset, amount).map(([u, a, n]) => new PlaceHold(u, a, n)),
  fc
    .tuple(fc.nat(), fc.bigInt({ min: 1n, max: 100n }), fc.boolean())
    .map(([p, pct, r]) => new PostHold(p, pct, r)),
  fc
    .tuple(fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), fc.bigInt({ min: 1n, max: 100n }))
    .map(([picks, pct]) => new PostHolds(picks, pct)),
  fc
    .tuple(fc.nat(), fc.constantFrom('voided' as const, 'expired' as const))
    .map(([p, o]) => new ReleaseHold(p, o)),
  fc.tuple(fc.nat(), fc.boolean()).map(([p, t]) => new Replay(p, t)),
];

let database: Database;
let run = 0;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

async function expectDatabaseEqualsModel(model: Model, real: Real): Promise<void> {
  const rows = await real.database.db
    .selectFrom('accounts')
    .select(['owner_user_id', 'asset', 'posted', 'held'])
    .where('owner_user_id', 'in', model.users)
    .execute();
  const actual = Object.fromEntries(
    rows.map((row) => [
      `${model.users.indexOf(row.owner_user_id as string)}:${row.asset}`,
      [row.posted, row.held],
    ]),
  );
  const expected: Record<string, [string, string]> = {};
  for (const key of new Set([...model.posted.keys(), ...model.held.keys()])) {
    expected[key] = [get(model.posted, key).toString(), get(model.held, key).toString()];
  }
  // Accounts created by a request that failed were rolled back, so only touched ones exist.
  for (const [key, value] of Object.entries(actual)) expected[key] ??= value as [string, string];
  expect(actual).toEqual(expected);

  if (real.holdIds.length > 0) {
    const holds = await real.database.db
      .selectFrom('holds')
      .select(['id', 'remaining', 'status'])
      .where('id', 'in', real.holdIds)
      .execute();
    const byId = new Map(holds.map((hold) => [hold.id, hold]));
    expect(real.holdIds.map((id) => byId.get(id)).map((h) => [h?.status, h?.remaining])).toEqual(
      model.holds.map((h) => [h.status, h.remaining.toString()]),
    );
  }
}

it(`matches a model of balances and holds through ${RUNS} random runs of up to 50 operations`, async () => {
  console.log(`ledger model: ${RUNS} runs, LEDGER_MODEL_SEED=${SEED}`);
  await fc.assert(
    fc.asyncProperty(fc.commands(commands, { maxCommands: 50, size: 'max' }), async (cmds) => {
      run += 1;
      const users = await Promise.all(
        Array.from({ length: USERS_PER_RUN }, () => createTestUser(database.db)),
      );
      const model: Model = {
        users,
        posted: new Map(),
        held: new Map(),
        holds: [],
        sent: [],
        keyPrefix: `model:${run}`,
        keys: 0,
      };
      const real: Real = { ledger: createLedger(), database, holdIds: [] };
      const checked = [...cmds].map((command) => ({
        check: (m: Readonly<Model>) => command.check(m),
        run: async (m: Model, r: Real) => {
          count(command.toString().split('(')[0] ?? '');
          await command.run(m, r);
          await expectDatabaseEqualsModel(m, r);
        },
        toString: () => command.toString(),
      }));
      await fc.asyncModelRun(() => ({ model, real }), checked);
      await expectLedgerToHold(database.db);
    }),
    { numRuns: RUNS, seed: SEED, ...(REPLAY_PATH ? { path: REPLAY_PATH } : {}) },
  );
  const runs = [...seen.entries()];
  console.log(`ledger model: ${JSON.stringify(Object.fromEntries(runs))}`);
  expect(Object.fromEntries(runs)).toMatchObject(
    Object.fromEntries(
      [
        'Deposit',
        'Transfer',
        'Trade',
        'PlaceHold',
        'PostHold',
        'PostHolds',
        'ReleaseHold',
        'Replay',
        'refused INSUFFICIENT_FUNDS',
        'refused CONFLICT',
        'refused IDEMPOTENCY_CONFLICT',
      ].map((name) => [name, expect.any(Number) as number]),
    ),
  );
}, 600_000);
