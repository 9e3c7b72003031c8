import { createHash } from 'node:crypto';
import { AppError, SANCTIONS_TEXTS, type RescreenSummary, type SanctionsList } from '@florin/contracts';
import { recordAudit, type AuditActor } from '../audit/service.js';
import { parseConList } from './con-list.js';
import type { ListRow } from './repository.js';
import type { SanctionsServiceDeps } from './shared.js';

export type UploadedList = { filename: string; bytes: Buffer };

function toList(row: ListRow): SanctionsList {
  return {
    id: row.id,
    file_name: row.file_name,
    sha256: row.sha256,
    size_bytes: row.size_bytes,
    list_updated_on: row.list_updated_on,
    imported_at: row.imported_at.toISOString(),
    imported_by: row.imported_by,
    rows: row.row_count,
    designations: row.designation_count,
    individuals: row.individual_count,
    entities: row.entity_count,
    ships: row.ship_count,
  };
}

/** A file name safe to keep and show: no folders, no control characters, at most 200 characters. */
function cleanFileName(filename: string): string {
  const base = (filename.split(/[\\/]/).pop() ?? '').replace(/\p{Cc}/gu, '').trim();
  return (base || 'ConList.csv').slice(-200);
}

/** The consolidated list compliance imports, and the screening of everyone against each new one. */
export function createListImport(
  deps: Pick<SanctionsServiceDeps, 'db' | 'repository'>,
  rescreenEveryone: (listId: number) => Promise<RescreenSummary>,
) {
  const { db, repository } = deps;

  return {
    async getActiveList(): Promise<SanctionsList | null> {
      const row = await repository.findActiveList();
      return row ? toList(row) : null;
    },

    /**
     * Replaces the active list with the file, whole or not at all: a file
     * that is not the consolidated list changes nothing. Then every customer
     * is screened against the new list.
     */
    async importList(
      actor: AuditActor,
      file: UploadedList,
    ): Promise<{ data: { list: SanctionsList; screening: RescreenSummary }; message: string }> {
      if (actor.staffId === null) throw new Error('a sanctions list is imported by a staff member');
      const staffId = actor.staffId;
      const parsed = parseConList(file.bytes);
      if (!parsed.ok) {
        throw new AppError('VALIDATION_FAILED', parsed.errors[0], { file: parsed.errors });
      }
      const { list } = parsed;
      const sha256 = createHash('sha256').update(file.bytes).digest('hex');
      const listId = await db.transaction().execute(async (trx) => {
        await repository.lockLists(trx);
        const before = await repository.findActiveList(trx);
        await repository.replaceActiveList(trx);
        const id = await repository.insertList(trx, {
          file_name: cleanFileName(file.filename),
          sha256,
          size_bytes: file.bytes.length,
          list_updated_on: list.updatedOn,
          row_count: list.counts.rows,
          designation_count: list.counts.designations,
          individual_count: list.counts.individuals,
          entity_count: list.counts.entities,
          ship_count: list.counts.ships,
          imported_by_staff_id: staffId,
        });
        await repository.insertEntries(trx, id, list.entries);
        const facts = (row: { sha256: string; list_updated_on: string; rows: number }) => ({
          sha256: row.sha256,
          list_updated_on: row.list_updated_on,
          rows: row.rows,
        });
        await recordAudit(trx, {
          ...actor,
          action: 'sanctions.list_imported',
          targetType: 'sanctions_list',
          targetId: id,
          before: before ? { id: before.id, ...facts({ ...before, rows: before.row_count }) } : null,
          after: {
            id,
            file_name: cleanFileName(file.filename),
            designations: list.counts.designations,
            ...facts({ sha256, list_updated_on: list.updatedOn, rows: list.counts.rows }),
          },
        });
        return id;
      });
      const screening = await rescreenEveryone(listId);
      const row = await repository.findList(listId);
      if (!row) throw new Error(`sanctions list ${listId} is gone after its import`);
      return { data: { list: toList(row), screening }, message: SANCTIONS_TEXTS.imported };
    },
  };
}
