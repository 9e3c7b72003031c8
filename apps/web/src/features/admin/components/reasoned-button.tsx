import { Button, Tooltip, type ButtonProps } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A button that cannot be used now says why, on hover, focus or touch: it stays focusable (aria-disabled,
 * not disabled), so a keyboard or a screen reader reaches the reason too.
 */
export function ReasonedButton({
  reason,
  onClick,
  ...props
}: Omit<ButtonProps, 'disabled'> & { reason: string | null; onClick: () => void; children: ReactNode }) {
  if (reason === null) return <Button {...props} onClick={onClick} />;
  return (
    <Tooltip label={reason} multiline w={260} events={{ hover: true, focus: true, touch: true }}>
      <Button {...props} data-disabled aria-disabled onClick={(event) => event.preventDefault()} />
    </Tooltip>
  );
}
