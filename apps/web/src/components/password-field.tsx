import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { useId, type Ref } from 'react';

type PasswordFieldProps = PasswordInputProps & { ref?: Ref<HTMLInputElement> };

/**
 * Mantine's PasswordInput, with what its inner input lacks for assistive
 * technology: `aria-invalid` and the error and description tied to it.
 */
export function PasswordField({ id, error, description, ...props }: PasswordFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const describedBy = [description ? `${inputId}-description` : '', error ? `${inputId}-error` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <PasswordInput
      id={inputId}
      error={error}
      description={description}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy || undefined}
      {...props}
    />
  );
}
