import type { FastifyBaseLogger } from 'fastify';

/** Work only the leading instance does, every `intervalMs`. */
export type LeaderJob = {
  name: string;
  intervalMs: number;
  run: () => Promise<unknown>;
};

/**
 * Runs each job on its interval while this instance leads (relay.isLeader),
 * never two runs of one job at once. Each job is safe to run on two instances
 * for a moment (a new leader can start before the old one notices): they claim
 * rows or key their journals, so a second run finds nothing to do.
 *
 * Returns the stop: no new runs start, and it resolves once the runs in flight
 * have finished, so a shutdown does not cut a payout between its journal and
 * its e-mail.
 */
export function startLeaderJobs(
  jobs: readonly LeaderJob[],
  options: { isLeader: () => boolean; log: Pick<FastifyBaseLogger, 'error'> },
): () => Promise<void> {
  const inFlight = new Map<string, Promise<void>>();
  let stopped = false;
  const timers = jobs.map((job) => {
    const timer = setInterval(() => {
      if (stopped || inFlight.has(job.name) || !options.isLeader()) return;
      const run = job
        .run()
        .then(
          () => undefined,
          (error: unknown) => options.log.error({ err: error, job: job.name }, `${job.name} failed`),
        )
        .finally(() => inFlight.delete(job.name));
      inFlight.set(job.name, run);
    }, job.intervalMs);
    timer.unref();
    return timer;
  });
  return async () => {
    stopped = true;
    for (const timer of timers) clearInterval(timer);
    await Promise.all(inFlight.values());
  };
}
