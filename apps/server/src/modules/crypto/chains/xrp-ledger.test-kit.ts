import type { AddressInfo } from 'node:net';
import { decode, hashes } from 'xrpl';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * A local server speaking rippled's websocket API (v2) for what xrpl.js and
 * the XRP Ledger adapter send: `server_info` (on connect), `ping` (its
 * heartbeat), `ledger` for the validated index, `account_tx` with markers,
 * and `subscribe` to accounts, whose stream it can then push. Transactions are
 * recorded in rippled's own JSON (an `account_tx` entry: `tx_json`, `meta`,
 * `hash`, `ledger_index`, `validated`); a ledger above the validated one is
 * not yet validated, so `account_tx` never returns it, as on a real server.
 * For payouts it also keeps accounts (`account_info`), takes signed blobs
 * (`submit`) and reports them (`tx`), see `createSubmissions`.
 */

/** The sender of every recorded payment: a funded testnet account. */
export const SENDER = 'rH3PxjJPrrkvsATddBXkayjAyWR8xigaE8';
const RIPPLE_EPOCH = 946_684_800;
/** tfPartialPayment: the payment may deliver less than DeliverMax. */
const TF_PARTIAL_PAYMENT = 0x0002_0000;

export type RecordedTransaction = {
  meta: { TransactionIndex: number; TransactionResult: string; delivered_amount?: unknown } & Record<
    string,
    unknown
  >;
  tx_json: Record<string, unknown> & { TransactionType: string; Account: string; Destination?: string };
  ledger_index: number;
  hash: string;
  ledger_hash: string;
  close_time_iso: string;
  validated: true;
};

type Request = { id: number | string; command: string; api_version?: number } & Record<string, unknown>;

function hex64(seed: string): string {
  return Buffer.from(seed.padEnd(32, '.').slice(0, 32)).toString('hex').toUpperCase();
}

function ledgerHashOf(index: number): string {
  return hex64(`ledger-${index}`);
}

function closeTimeOf(index: number): number {
  // Ledgers close about every 4 seconds; any fixed rate gives stable fixtures.
  return 800_000_000 + index * 4;
}

/**
 * One XRP payment as `account_tx` (API v2) reports it: `delivered_amount` is
 * what arrived; `DeliverMax` (API v1's `Amount`) what the sender named.
 */
export function recordedPayment(values: {
  hash: string;
  ledger: number;
  destination: string;
  tag?: number;
  drops: string;
  /** A partial payment: named more than it delivered. */
  deliverMax?: string;
  result?: string;
  index?: number;
}): RecordedTransaction {
  const result = values.result ?? 'tesSUCCESS';
  const succeeded = result === 'tesSUCCESS';
  const closeTime = closeTimeOf(values.ledger);
  return {
    meta: {
      AffectedNodes: [
        {
          ModifiedNode: {
            FinalFields: { Account: SENDER, Balance: '39999964', Flags: 0, OwnerCount: 0, Sequence: 1969812 },
            LedgerEntryType: 'AccountRoot',
            LedgerIndex: 'EDE60B24659BCC06CCE1EA2804A4A202F1C88155CEAED9C140833C0C39100617',
            PreviousFields: { Balance: '59999976', Sequence: 1969811 },
            PreviousTxnID: '1DBC93373D47794A684A5013178D0EBE10E6641D7C262BF20151B0E19156FF79',
            PreviousTxnLgrSeq: values.ledger - 9,
          },
        },
        {
          ModifiedNode: {
            FinalFields: {
              Account: values.destination,
              Balance: '160000000',
              Flags: 0,
              OwnerCount: 0,
              Sequence: 42,
            },
            LedgerEntryType: 'AccountRoot',
            LedgerIndex: 'F7D350FB54C5BBA734AE574EE6BF7A9294E11F9B75413972F98846AFC587C62C',
            PreviousFields: { Balance: '140000000' },
            PreviousTxnID: '1DBC93373D47794A684A5013178D0EBE10E6641D7C262BF20151B0E19156FF79',
            PreviousTxnLgrSeq: values.ledger - 9,
          },
        },
      ],
      TransactionIndex: values.index ?? 4,
      TransactionResult: result,
      // rippled adds delivered_amount to a successful Payment's metadata only.
      ...(succeeded ? { delivered_amount: values.drops } : {}),
    },
    tx_json: {
      Account: SENDER,
      DeliverMax: values.deliverMax ?? values.drops,
      Destination: values.destination,
      ...(values.tag === undefined ? {} : { DestinationTag: values.tag }),
      Fee: '12',
      Flags: values.deliverMax === undefined ? 0 : TF_PARTIAL_PAYMENT,
      LastLedgerSequence: values.ledger + 20,
      Sequence: 1969811,
      SigningPubKey: 'ED0761CDA5507784F6CEB445DE2343F861DD5EC7A869F75B08C7E8F29A947AD9FC',
      TransactionType: 'Payment',
      TxnSignature:
        '20D5447ED7095BCCC3D42EA1955600D97D791811072E93D2A358AD9FB258C3A7F004974039D25708F5AE598C78F85B688DD586158F7E9C13AE0F30CC18E3390D',
      ctid: `C${values.ledger.toString(16).toUpperCase().padStart(7, '0')}${(values.index ?? 4).toString(16).padStart(4, '0')}0000`,
      date: closeTime,
      ledger_index: values.ledger,
    },
    ledger_index: values.ledger,
    hash: values.hash,
    ledger_hash: ledgerHashOf(values.ledger),
    close_time_iso: new Date((closeTime + RIPPLE_EPOCH) * 1000).toISOString().replace('.000', ''),
    validated: true,
  };
}

/** The account stream's message for a validated transaction (API v2). */
export function streamed(transaction: RecordedTransaction) {
  const { meta, tx_json, hash, ledger_index, ledger_hash, close_time_iso } = transaction;
  return {
    close_time_iso,
    engine_result: meta.TransactionResult,
    engine_result_code: meta.TransactionResult === 'tesSUCCESS' ? 0 : 101,
    engine_result_message: 'The transaction was applied. Only final in a validated ledger.',
    hash,
    ledger_hash,
    ledger_index,
    meta,
    status: 'closed',
    tx_json,
    type: 'transaction',
    validated: true,
  };
}

/** The stream's message for a transaction a ledger in progress holds: no meta, not validated. */
export function streamedProposed(transaction: RecordedTransaction) {
  const { tx_json, hash, ledger_index } = transaction;
  return {
    engine_result: 'tesSUCCESS',
    engine_result_code: 0,
    engine_result_message: 'The transaction was applied. Only final in a validated ledger.',
    hash,
    ledger_current_index: ledger_index,
    status: 'proposed',
    tx_json,
    type: 'transaction',
    validated: false,
  };
}

/** An account as `account_info` reports it: balance in drops. */
export type FakeAccount = { Balance: string; Sequence: number; OwnerCount: number };

/** A blob `submit` took: applied in `ledger` once the test includes it. */
export type Submitted = { blob: string; hash: string; tx_json: Record<string, unknown>; ledger?: number };

/**
 * What the fake server does with payouts: `submit` applies a signed blob once (its Sequence is then
 * used, so the same blob again is `tefALREADY` while pending, `tefPAST_SEQ` once in a ledger), and
 * `tx` reports it, validated once its ledger is; one never included is not found after its
 * LastLedgerSequence (`searched_all`).
 */
function createSubmissions(validated: () => number) {
  const accounts = new Map<string, FakeAccount>();
  const submitted: Submitted[] = [];
  /** Blobs `submit` received, duplicates included. */
  const received: string[] = [];

  function accountInfo(request: Request) {
    const data = accounts.get(String(request.account));
    if (!data) return { error: 'actNotFound', error_code: 19, error_message: 'Account not found.' };
    return {
      account_data: { Account: request.account, Flags: 0, LedgerEntryType: 'AccountRoot', ...data },
      ledger_current_index: validated() + 1,
      validated: request.ledger_index === 'validated',
    };
  }

  function submit(request: Request) {
    const blob = String(request.tx_blob);
    received.push(blob);
    const hash = hashes.hashSignedTx(blob);
    const tx_json: Record<string, unknown> = { ...decode(blob), hash };
    const known = submitted.find((entry) => entry.hash === hash);
    const account = accounts.get(String(tx_json.Account));
    let engine_result = 'tesSUCCESS';
    if (known) engine_result = known.ledger === undefined ? 'tefALREADY' : 'tefPAST_SEQ';
    else if (!account || tx_json.Sequence !== account.Sequence) engine_result = 'tefPAST_SEQ';
    else {
      submitted.push({ blob, hash, tx_json });
      account.Sequence += 1;
      account.Balance = String(
        BigInt(account.Balance) - BigInt(String(tx_json.Amount)) - BigInt(String(tx_json.Fee)),
      );
    }
    return {
      accepted: engine_result === 'tesSUCCESS',
      applied: engine_result === 'tesSUCCESS',
      engine_result,
      engine_result_code: engine_result === 'tesSUCCESS' ? 0 : -190,
      engine_result_message:
        engine_result === 'tesSUCCESS' ? 'The transaction was applied.' : 'Already seen.',
      tx_blob: blob,
      tx_json,
    };
  }

  function tx(request: Request) {
    const found = submitted.find((entry) => entry.hash === request.transaction);
    if (!found) {
      const max = Number(request.max_ledger ?? Number.POSITIVE_INFINITY);
      return {
        error: 'txnNotFound',
        error_code: 29,
        error_message: 'Transaction not found.',
        searched_all: max <= validated(),
      };
    }
    const isValidated = found.ledger !== undefined && found.ledger <= validated();
    return {
      hash: found.hash,
      tx_json: found.tx_json,
      ...(found.ledger === undefined ? {} : { ledger_index: found.ledger }),
      ...(isValidated ? { meta: { TransactionIndex: 0, TransactionResult: 'tesSUCCESS' } } : {}),
      validated: isValidated,
    };
  }

  return { accounts, submitted, received, accountInfo, submit, tx };
}

export type FakeRippled = Awaited<ReturnType<typeof startFakeRippled>>;

export async function startFakeRippled(options: { earliest: number }) {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const state = {
    validated: options.earliest,
    /** What the server returns per account_tx page at most (rippled may return fewer than asked). */
    pageSize: 200,
    transactions: [] as RecordedTransaction[],
    /** Commands whose next answer is lost: the connection drops after the server acted. */
    dropAnswers: new Set<string>(),
  };
  const requests: Request[] = [];
  const followers = new Map<WebSocket, Set<string>>();
  const payouts = createSubmissions(() => state.validated);

  function involves(transaction: RecordedTransaction, account: string): boolean {
    return transaction.tx_json.Account === account || transaction.tx_json.Destination === account;
  }

  function accountTx(request: Request) {
    const account = String(request.account);
    const requestedMin = Number(request.ledger_index_min ?? -1);
    const requestedMax = Number(request.ledger_index_max ?? -1);
    const min = requestedMin === -1 ? options.earliest : requestedMin;
    const max = requestedMax === -1 ? state.validated : requestedMax;
    // API v2: a ledger outside what the server holds is an error, not silently skipped.
    if (min < options.earliest || max > state.validated)
      return { error: 'lgrIdxMalformed', error_code: 57, error_message: 'Ledger indexes invalid.' };
    if (min > max)
      return { error: 'lgrIdxsInvalid', error_code: 55, error_message: 'Ledger indexes invalid.' };
    const order = (a: RecordedTransaction, b: RecordedTransaction) =>
      a.ledger_index - b.ledger_index || a.meta.TransactionIndex - b.meta.TransactionIndex;
    const matching = state.transactions
      .filter((row) => involves(row, account) && row.ledger_index >= min && row.ledger_index <= max)
      .sort(request.forward === true ? order : (a, b) => order(b, a));
    const marker = request.marker as { ledger: number; seq: number } | undefined;
    const start = marker
      ? matching.findIndex(
          (row) => row.ledger_index === marker.ledger && row.meta.TransactionIndex === marker.seq,
        )
      : 0;
    const limit = Math.min(Number(request.limit ?? 200), state.pageSize);
    const page = matching.slice(start, start + limit);
    const following = matching[start + limit];
    return {
      account,
      ledger_index_min: min,
      ledger_index_max: max,
      limit: Number(request.limit ?? 200),
      ...(following
        ? { marker: { ledger: following.ledger_index, seq: following.meta.TransactionIndex } }
        : {}),
      transactions: page,
      validated: true,
    };
  }

  function answer(socket: WebSocket, request: Request): Record<string, unknown> {
    switch (request.command) {
      case 'server_info':
        return {
          info: {
            build_version: '2.3.0',
            complete_ledgers: `${options.earliest}-${state.validated}`,
            server_state: 'full',
            validated_ledger: {
              age: 2,
              base_fee_xrp: 0.00001,
              hash: ledgerHashOf(state.validated),
              reserve_base_xrp: 1,
              reserve_inc_xrp: 0.2,
              seq: state.validated,
            },
          },
        };
      case 'ping':
        return {};
      case 'ledger':
        return {
          ledger: {
            close_time: closeTimeOf(state.validated),
            closed: true,
            ledger_hash: ledgerHashOf(state.validated),
            ledger_index: state.validated,
            parent_hash: ledgerHashOf(state.validated - 1),
          },
          ledger_hash: ledgerHashOf(state.validated),
          ledger_index: state.validated,
          validated: true,
        };
      case 'account_tx':
        return accountTx(request);
      case 'account_info':
        return payouts.accountInfo(request);
      case 'submit':
        return payouts.submit(request);
      case 'tx':
        return payouts.tx(request);
      case 'subscribe': {
        const accounts = followers.get(socket) ?? new Set<string>();
        for (const account of (request.accounts as string[] | undefined) ?? []) accounts.add(account);
        followers.set(socket, accounts);
        return {};
      }
      default:
        return { error: 'unknownCmd', error_code: 32, error_message: 'Unknown method.' };
    }
  }

  server.on('connection', (socket) => {
    socket.on('message', (data: Buffer) => {
      const request = JSON.parse(data.toString()) as Request;
      requests.push(request);
      const result = answer(socket, request);
      // The server read the call and acted on it, but the answer is lost with the connection.
      if (state.dropAnswers.delete(request.command)) {
        socket.terminate();
        return;
      }
      const envelope = { id: request.id, api_version: request.api_version, type: 'response' };
      // rippled hoists an error's fields out of the result, and echoes the request.
      const reply =
        'error' in result
          ? { ...result, request, status: 'error', ...envelope }
          : { result, status: 'success', ...envelope };
      socket.send(JSON.stringify(reply));
    });
    socket.on('close', () => followers.delete(socket));
  });

  return {
    url,
    state,
    requests,
    /** Validates ledgers up to `index`: what was recorded in them is now final. */
    validate(index: number) {
      state.validated = index;
    },
    record(...transactions: RecordedTransaction[]) {
      state.transactions.push(...transactions);
    },
    /** Sends a stream message to every connection following `account`. */
    push(account: string, message: object) {
      for (const [socket, accounts] of followers)
        if (accounts.has(account)) socket.send(JSON.stringify(message));
    },
    /** Drops every connection, as a restarting server would. */
    dropConnections() {
      for (const socket of server.clients) socket.terminate();
    },
    /** Accounts `account_info` reports, and the blobs `submit` took or received. */
    payouts,
    /** Puts every submitted, not yet included transaction in ledger `index` (validated once `validate` reaches it). */
    include(index: number) {
      for (const entry of payouts.submitted) entry.ledger ??= index;
    },
    requestsOf(command: string) {
      return requests.filter((request) => request.command === command);
    },
    close() {
      for (const socket of server.clients) socket.terminate();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
