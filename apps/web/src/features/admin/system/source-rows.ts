import type { PriceFeedState, Sources } from '@florin/contracts';

/** One part of Florin and where its data comes from, as the system screen lists it. */
export type SourceRow = {
  part: string;
  source: string;
  /** An embedded stand-in rather than the real service. */
  standIn: boolean;
  /** Production runs on the stand-in because ALLOW_STAND_INS names it. */
  allowedByName: boolean;
};

const SOURCE_NAMES: Record<string, string> = {
  simulated: 'Simulated',
  kraken: 'Kraken',
  coinbase: 'Coinbase Exchange',
  node: 'Node',
  smtp: 'Mail server (SMTP)',
  'dev-mailbox': 'Dev mailbox',
  s3: 'S3 bucket',
  local: 'Local folder',
};

const STAND_INS = new Set(['simulated', 'dev-mailbox', 'local']);

/** The market, each coin's chain, the mail and the uploads, in that order. */
export function sourceRows(sources: Sources): SourceRow[] {
  const allowed = new Set(sources.stand_ins_allowed);
  const row = (part: string, key: string, source: string): SourceRow => ({
    part,
    source: SOURCE_NAMES[source] ?? source,
    standIn: STAND_INS.has(source),
    allowedByName: allowed.has(key),
  });
  return [
    {
      ...row('Market prices', 'market', sources.market[0] ?? 'simulated'),
      source: sources.market.map((name) => SOURCE_NAMES[name] ?? name).join(' + '),
    },
    ...Object.entries(sources.chains).map(([coin, source]) => row(`${coin} chain`, `chain:${coin}`, source)),
    row('Mail', 'mail', sources.mail),
    row('Uploaded documents', 'uploads', sources.uploads),
  ];
}

/** A price feed as the system screen lists it. */
export type FeedRow = { name: string; state: string; live: boolean; lastMessageAt: string | null };

const FEED_STATES: Record<PriceFeedState['state'], string> = {
  live: 'Live',
  stale: 'Stale: its prices are not used',
  off: 'Off on this server: another one leads',
};

export function feedRows(feeds: readonly PriceFeedState[]): FeedRow[] {
  return feeds.map((feed) => ({
    name: SOURCE_NAMES[feed.name] ?? feed.name,
    state: FEED_STATES[feed.state],
    live: feed.state === 'live',
    lastMessageAt: feed.last_message_at,
  }));
}
