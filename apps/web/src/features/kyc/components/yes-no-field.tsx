import { Group, Input, Radio, Stack, Text } from '@mantine/core';
import { useId } from 'react';

export type YesNoValue = '' | '1' | '0';

type YesNoFieldProps = {
  label: string;
  value: YesNoValue;
  onChange: (value: YesNoValue) => void;
  error?: string;
  description?: string;
};

/** A Yes/No question as a labelled radio group (Yes/No travel as 1/0, spec 000 section 9). */
export function YesNoField({ label, value, onChange, error, description }: YesNoFieldProps) {
  const id = useId();
  return (
    <Stack gap={6}>
      <div
        role="radiogroup"
        aria-labelledby={`${id}-label`}
        aria-describedby={error ? `${id}-error` : undefined}
      >
        <Input.Label component="div" id={`${id}-label`} mb={description ? 2 : 6}>
          {label}
        </Input.Label>
        {description && (
          <Text size="xs" c="dimmed" mb={6}>
            {description}
          </Text>
        )}
        <Group gap="xl">
          <Radio name={id} value="1" label="Yes" checked={value === '1'} onChange={() => onChange('1')} />
          <Radio name={id} value="0" label="No" checked={value === '0'} onChange={() => onChange('0')} />
        </Group>
      </div>
      {error && (
        <Text id={`${id}-error`} size="xs" c="red.8">
          {error}
        </Text>
      )}
    </Stack>
  );
}
