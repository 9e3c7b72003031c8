/** What the history benchmark and its server process (server.ts) say to each other over IPC. */
export const SAMPLE_MS = 25;

export type MemoryPeaks = {
  samples: number;
  baselineRss: number;
  baselineHeap: number;
  peakRss: number;
  peakHeap: number;
  /** The longest gap between two samples: how late the server's event loop let the sampler run. */
  longestGapMs: number;
  /** The peak of heapUsed right after a forced full GC (what is really held), when asked for; else null. */
  peakLiveHeap: number | null;
  liveSamples: number;
};
export type ParentMessage =
  /** liveEveryMs: also force a full GC that often and note the heap it leaves (slows the server down). */
  { type: 'sample-start'; liveEveryMs?: number } | { type: 'sample-stop' } | { type: 'stop' };
export type ChildMessage =
  | { type: 'listening'; url: string; pid: number }
  | { type: 'sampling' }
  | { type: 'peaks'; peaks: MemoryPeaks };
