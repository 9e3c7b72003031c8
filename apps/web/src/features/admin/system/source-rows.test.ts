import { describe, expect, it } from 'vitest';
import { feedRows, sourceRows } from './source-rows';

describe('sourceRows', () => {
  it('lists each part with its source, marking the stand-ins and those production was allowed by name', () => {
    expect(
      sourceRows({
        market: ['kraken', 'coinbase'],
        chains: { BTC: 'node', XRP: 'simulated' },
        mail: 'dev-mailbox',
        uploads: 's3',
        stand_ins_allowed: ['chain:XRP', 'mail'],
      }),
    ).toEqual([
      { part: 'Market prices', source: 'Kraken + Coinbase Exchange', standIn: false, allowedByName: false },
      { part: 'BTC chain', source: 'Node', standIn: false, allowedByName: false },
      { part: 'XRP chain', source: 'Simulated', standIn: true, allowedByName: true },
      { part: 'Mail', source: 'Dev mailbox', standIn: true, allowedByName: true },
      { part: 'Uploaded documents', source: 'S3 bucket', standIn: false, allowedByName: false },
    ]);
  });

  it('marks a simulated market as a stand-in', () => {
    const [market] = sourceRows({
      market: ['simulated'],
      chains: {},
      mail: 'smtp',
      uploads: 's3',
      stand_ins_allowed: ['market'],
    });
    expect(market).toEqual({
      part: 'Market prices',
      source: 'Simulated',
      standIn: true,
      allowedByName: true,
    });
  });
});

describe('feedRows', () => {
  it('says of each feed whether its prices are used, and when it was last heard', () => {
    expect(
      feedRows([
        { name: 'kraken', state: 'live', last_message_at: '2026-12-06T12:00:00.000Z' },
        { name: 'coinbase', state: 'stale', last_message_at: null },
        { name: 'kraken', state: 'off', last_message_at: null },
      ]),
    ).toEqual([
      { name: 'Kraken', state: 'Live', live: true, lastMessageAt: '2026-12-06T12:00:00.000Z' },
      {
        name: 'Coinbase Exchange',
        state: 'Stale: its prices are not used',
        live: false,
        lastMessageAt: null,
      },
      { name: 'Kraken', state: 'Off on this server: another one leads', live: false, lastMessageAt: null },
    ]);
  });
});
