import { AppError, type Screening } from '@florin/contracts';
import type { SanctionsServiceDeps } from './shared.js';

/** The record of each customer's screenings, kept as evidence. */
export function createScreeningHistory(deps: Pick<SanctionsServiceDeps, 'repository'>) {
  const { repository } = deps;

  return {
    /** The customer's screenings, newest first: evidence of when they were screened, against which list. */
    async listScreenings(userId: number): Promise<Screening[]> {
      if (!(await repository.customerExists(userId))) throw new AppError('NOT_FOUND');
      const rows = await repository.listScreenings(userId);
      return rows.map((row) => ({
        id: Number(row.id), // a row id, far below 2^53
        user_id: row.user_id,
        list_id: row.list_id,
        list_updated_on: row.list_updated_on,
        list_sha256: row.list_sha256,
        trigger: row.trigger,
        outcome: row.outcome,
        subjects: row.subjects,
        matches: row.matches,
        screened_at: row.screened_at.toISOString(),
      }));
    },
  };
}
