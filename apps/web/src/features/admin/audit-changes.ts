import type { AuditEntry } from '@florin/contracts';

export type AuditChange = { field: string; before?: string; after?: string };

function show(value: unknown): string {
  if (value === null || value === undefined) return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * What an audit row changed, field by field: every field whose value differs
 * between before and after (all of `after` for a creation, all of `before`
 * for a removal), in the order the record lists them.
 */
export function auditChanges(entry: Pick<AuditEntry, 'before' | 'after'>): AuditChange[] {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields
    .filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]))
    .map((field) => ({
      field,
      ...(entry.before && field in before ? { before: show(before[field]) } : {}),
      ...(entry.after && field in after ? { after: show(after[field]) } : {}),
    }));
}
