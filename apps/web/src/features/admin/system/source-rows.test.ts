import { describe, expect, it } from 'vitest';
import { sourceRows } from './source-rows';

describe('sourceRows', () => {
  it('lists each part with its source, marking the stand-ins and those production was allowed by name', () => {
    expect(
      sourceRows({
        market: 'kraken',
        chains: { BTC: 'node', XRP: 'simulated' },
        mail: 'dev-mailbox',
        uploads: 's3',
        stand_ins_allowed: ['chain:XRP', 'mail'],
      }),
    ).toEqual([
      { part: 'Market prices', source: 'Kraken', standIn: false, allowedByName: false },
      { part: 'BTC chain', source: 'Node', standIn: false, allowedByName: false },
      { part: 'XRP chain', source: 'Simulated', standIn: true, allowedByName: true },
      { part: 'Mail', source: 'Dev mailbox', standIn: true, allowedByName: true },
      { part: 'Uploaded documents', source: 'S3 bucket', standIn: false, allowedByName: false },
    ]);
  });
});
