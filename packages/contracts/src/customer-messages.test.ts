import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { CUSTOMER_MESSAGES, parseCustomerInput } from './customer-messages.js';

const messagesOf = (schema: z.ZodType, value: unknown) =>
  parseCustomerInput(schema, value).error?.issues.map((issue) => issue.message);

describe('the customer messages every contract falls back on', () => {
  it('replace zod’s own words for missing, short, long and out-of-range values', () => {
    expect(messagesOf(z.strictObject({ name: z.string() }), {})).toEqual(['This field is required.']);
    expect(messagesOf(z.string().min(1), '')).toEqual(['This field is required.']);
    expect(messagesOf(z.string().min(16), 'abc')).toEqual(['Please enter at least 16 characters.']);
    expect(messagesOf(z.string().max(3), 'abcd')).toEqual(['This field may be at most 3 characters.']);
    expect(messagesOf(z.number().min(5), 4)).toEqual(['Please enter 5 or more.']);
    expect(messagesOf(z.number().positive(), 0)).toEqual(['Please enter more than 0.']);
    expect(messagesOf(z.number().int(), 1.5)).toEqual([CUSTOMER_MESSAGES.wholeNumber]);
    expect(messagesOf(z.array(z.string()).min(2), ['a'])).toEqual(['Please choose at least 2.']);
  });

  it('name the format a value should have', () => {
    expect(messagesOf(z.email(), 'nobody')).toEqual([CUSTOMER_MESSAGES.email]);
    expect(messagesOf(z.url(), 'nowhere')).toEqual([CUSTOMER_MESSAGES.url]);
    expect(messagesOf(z.string().regex(/^\d+$/), 'x')).toEqual([CUSTOMER_MESSAGES.format]);
    expect(messagesOf(z.enum(['a', 'b']), 'c')).toEqual([CUSTOMER_MESSAGES.choose]);
    expect(messagesOf(z.strictObject({}), { extra: 1 })).toEqual([CUSTOMER_MESSAGES.notAllowed]);
    expect(messagesOf(z.number(), 'ten')).toEqual([CUSTOMER_MESSAGES.notNumber]);
  });

  it('leave a message the contract gives alone', () => {
    expect(messagesOf(z.string().min(16, 'Our own words.'), 'abc')).toEqual(['Our own words.']);
  });

  it('never let a developer’s wording through', () => {
    const schemas: [z.ZodType, unknown][] = [
      [z.string().min(16), 'x'],
      [z.string().length(4), 'x'],
      [z.number().multipleOf(5), 3],
      [z.literal('yes'), 'no'],
      [z.union([z.string(), z.number()]), true],
      [z.record(z.string(), z.number()), { a: 'x' }],
      [z.iso.datetime(), 'soon'],
      [z.bigint(), 1],
      [z.date(), 'x'],
    ];
    for (const [schema, value] of schemas)
      for (const message of messagesOf(schema, value) ?? [])
        expect(message).not.toMatch(/Too small|Too big|expected|Invalid input|Invalid option|>=|<=/);
  });

  it('reword only the parses of customer input, not every zod parse in the process', () => {
    // The server's environment checks, say, keep zod's words, which name the values it takes.
    const logLevel = z.enum(['info', 'debug']);
    expect(logLevel.safeParse('loud').error?.issues[0]?.message).toBe(
      'Invalid option: expected one of "info"|"debug"',
    );
    expect(messagesOf(logLevel, 'loud')).toEqual([CUSTOMER_MESSAGES.choose]);
  });
});
