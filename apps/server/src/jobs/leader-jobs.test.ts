import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { startLeaderJobs } from './leader-jobs.js';

const quietLog = { error: () => undefined };

describe('startLeaderJobs', () => {
  it('runs a job only while this instance leads, one run at a time', async () => {
    let leading = false;
    let running = 0;
    let mostAtOnce = 0;
    let runs = 0;
    const stop = startLeaderJobs(
      [
        {
          name: 'slow job',
          intervalMs: 5,
          run: async () => {
            runs += 1;
            running += 1;
            mostAtOnce = Math.max(mostAtOnce, running);
            await sleep(30);
            running -= 1;
          },
        },
      ],
      { isLeader: () => leading, log: quietLog },
    );
    await sleep(50);
    expect(runs).toBe(0);
    leading = true;
    await sleep(150);
    await stop();
    expect(runs).toBeGreaterThan(1);
    expect(mostAtOnce).toBe(1);
  });

  it('keeps running a job after a run fails, and logs the failure with the job’s name', async () => {
    const logged: string[] = [];
    let runs = 0;
    const stop = startLeaderJobs(
      [
        {
          name: 'flaky job',
          intervalMs: 5,
          run: () => {
            runs += 1;
            return Promise.reject(new Error('database gone'));
          },
        },
      ],
      {
        isLeader: () => true,
        log: {
          error: (_context: unknown, message?: string) => {
            logged.push(message ?? '');
          },
        },
      },
    );
    await sleep(60);
    await stop();
    expect(runs).toBeGreaterThan(1);
    expect(logged[0]).toBe('flaky job failed');
  });

  it('stops starting runs at once, and resolves only when the run in flight has finished', async () => {
    let finished = false;
    let runs = 0;
    const stop = startLeaderJobs(
      [
        {
          name: 'payout',
          intervalMs: 5,
          run: async () => {
            runs += 1;
            await sleep(80);
            finished = true;
          },
        },
      ],
      { isLeader: () => true, log: quietLog },
    );
    await sleep(20);
    expect(runs).toBe(1);
    await stop();
    expect(finished).toBe(true);
    await sleep(30);
    expect(runs).toBe(1);
  });
});
