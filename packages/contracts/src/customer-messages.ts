import type { z } from 'zod';

/**
 * zod's own messages ("Too small: expected string to have >=16 characters")
 * are for developers. Every check a contract writes without a message of its
 * own gets one of these sentences instead when customer input is parsed
 * (parseCustomerInput): the server's request validation and the web's forms.
 * A message a contract gives (the spec's texts) always wins over these.
 */
export const CUSTOMER_MESSAGES = {
  required: 'This field is required.',
  notText: 'Please enter text here.',
  notNumber: 'Please enter a number.',
  wholeNumber: 'Please enter a whole number.',
  notValid: 'This value is not valid. Please check it and try again.',
  choose: 'Please choose one of the options offered.',
  email: 'Please enter a valid email address.',
  url: 'Please enter a full web address, starting https://.',
  date: 'Please enter a valid date.',
  ip: 'Please enter a valid IP address, e.g. 203.0.113.7.',
  format: 'This value is not in the expected format. Please check it and try again.',
  notAllowed: 'This field is not allowed.',
  tooFewItems: 'Please choose at least {n}.',
  tooManyItems: 'Please choose at most {n}.',
  tooShort: 'Please enter at least {n} characters.',
  tooLong: 'This field may be at most {n} characters.',
  tooSmall: 'Please enter {n} or more.',
  tooSmallExclusive: 'Please enter more than {n}.',
  tooBig: 'Please enter {n} or less.',
  tooBigExclusive: 'Please enter less than {n}.',
} as const;

type Issue = Parameters<NonNullable<z.core.$ZodConfig['customError']>>[0];

const withN = (text: string, n: unknown) => text.replace('{n}', String(n));

function sizeMessage(issue: Issue & { code: 'too_small' | 'too_big' }): string {
  const small = issue.code === 'too_small';
  const bound = small ? issue.minimum : issue.maximum;
  switch (issue.origin) {
    case 'string':
      if (small && Number(bound) <= 1) return CUSTOMER_MESSAGES.required;
      return withN(small ? CUSTOMER_MESSAGES.tooShort : CUSTOMER_MESSAGES.tooLong, bound);
    case 'array':
    case 'set':
      return withN(small ? CUSTOMER_MESSAGES.tooFewItems : CUSTOMER_MESSAGES.tooManyItems, bound);
    case 'number':
    case 'int':
    case 'bigint':
      if (small)
        return withN(
          issue.inclusive ? CUSTOMER_MESSAGES.tooSmall : CUSTOMER_MESSAGES.tooSmallExclusive,
          bound,
        );
      return withN(issue.inclusive ? CUSTOMER_MESSAGES.tooBig : CUSTOMER_MESSAGES.tooBigExclusive, bound);
    default:
      return CUSTOMER_MESSAGES.notValid;
  }
}

const FORMAT_MESSAGES: Record<string, string> = {
  email: CUSTOMER_MESSAGES.email,
  url: CUSTOMER_MESSAGES.url,
  date: CUSTOMER_MESSAGES.date,
  datetime: CUSTOMER_MESSAGES.date,
  ipv4: CUSTOMER_MESSAGES.ip,
  ipv6: CUSTOMER_MESSAGES.ip,
};

/** The sentence a customer reads for one failed check that the contract gave no text of its own. */
export function customerErrorMessage(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined || issue.input === null || issue.input === '')
        return CUSTOMER_MESSAGES.required;
      if (issue.expected === 'string') return CUSTOMER_MESSAGES.notText;
      if (issue.expected === 'number' || issue.expected === 'bigint') return CUSTOMER_MESSAGES.notNumber;
      if (issue.expected === 'int') return CUSTOMER_MESSAGES.wholeNumber;
      return CUSTOMER_MESSAGES.notValid;
    case 'too_small':
    case 'too_big':
      return sizeMessage(issue);
    case 'invalid_format':
      return FORMAT_MESSAGES[issue.format] ?? CUSTOMER_MESSAGES.format;
    case 'invalid_value':
      return CUSTOMER_MESSAGES.choose;
    case 'unrecognized_keys':
      return CUSTOMER_MESSAGES.notAllowed;
    case 'not_multiple_of':
      return Number(issue.divisor) === 1 ? CUSTOMER_MESSAGES.wholeNumber : CUSTOMER_MESSAGES.notValid;
    default:
      return CUSTOMER_MESSAGES.notValid;
  }
}

/**
 * Parses what a customer sent or typed, in CUSTOMER_MESSAGES. Per parse, not
 * through z.config: that would also reword what operators read (the server's
 * environment checks) and every other parse in the process.
 */
export function parseCustomerInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
): z.ZodSafeParseResult<z.output<S>> {
  return schema.safeParse(input, { error: customerErrorMessage });
}

/** parseCustomerInput for a schema with async checks. */
export function parseCustomerInputAsync<S extends z.ZodType>(
  schema: S,
  input: unknown,
): Promise<z.ZodSafeParseResult<z.output<S>>> {
  return schema.safeParseAsync(input, { error: customerErrorMessage });
}
