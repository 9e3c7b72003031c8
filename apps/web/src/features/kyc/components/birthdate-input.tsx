import '@mantine/dates/styles.css';
import { KYC_TEXTS, todayInLondon } from '@florin/contracts';
import { DateInput } from '@mantine/dates';
import type { FocusEvent } from 'react';

const TYPED_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/** "05/17/1990" (as shown) → "1990-05-17"; null when it is not a real day. */
export function parseShownDate(text: string): string | null {
  const match = TYPED_DATE.exec(text.trim());
  if (!match) return null;
  const [, month = '', day = '', year = ''] = match;
  const iso = `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(iso) ? iso : null;
}

type BirthdateInputProps = {
  value: string;
  onChange: (value: string) => void;
  /** Called with the spec's text when a future date is typed (the picker itself offers none). */
  onFutureDate: (message: string) => void;
  error?: string;
  label?: string;
};

/**
 * Date of birth, shown MM/dd/yyyy as the spec has it, kept and sent as YYYY-MM-DD; no day after
 * today (in the UK) can be picked, and typing one says why it was not taken.
 */
export function BirthdateInput({
  value,
  onChange,
  onFutureDate,
  error,
  label = 'Date of Birth',
}: BirthdateInputProps) {
  const today = todayInLondon();
  const handleBlur = (event: FocusEvent<HTMLInputElement>) => {
    const typed = parseShownDate(event.currentTarget.value);
    if (typed && typed > today) onFutureDate(KYC_TEXTS.birthdateFuture);
  };
  return (
    <DateInput
      label={label}
      placeholder="MM/DD/YYYY"
      description="MM/DD/YYYY"
      valueFormat="MM/DD/YYYY"
      dateParser={parseShownDate}
      maxDate={today}
      defaultLevel="decade"
      value={value || null}
      onChange={(next) => onChange(next ?? '')}
      onBlur={handleBlur}
      error={error}
      autoComplete="bday"
      popoverProps={{ withinPortal: true }}
    />
  );
}
