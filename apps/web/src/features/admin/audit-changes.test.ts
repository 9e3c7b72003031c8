import { describe, expect, it } from 'vitest';
import { auditChanges } from './audit-changes';

describe('auditChanges', () => {
  it('lists only the fields whose value changed, with both sides', () => {
    expect(
      auditChanges({
        before: { email: 'a@florin.test', role: 'support', disabled: false },
        after: { email: 'a@florin.test', role: 'finance', disabled: false },
      }),
    ).toEqual([{ field: 'role', before: 'support', after: 'finance' }]);
  });

  it('lists every field of a creation as after only, and shows non-text values as JSON', () => {
    expect(
      auditChanges({ before: null, after: { role: 'compliance', disabled: false, limits: [1, 2] } }),
    ).toEqual([
      { field: 'role', after: 'compliance' },
      { field: 'disabled', after: 'false' },
      { field: 'limits', after: '[1,2]' },
    ]);
  });

  it('has nothing to list for an action without state (a sign-in)', () => {
    expect(auditChanges({ before: null, after: null })).toEqual([]);
  });
});
