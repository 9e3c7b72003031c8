import { Button, Group } from '@mantine/core';

type StepNavProps = {
  onBack?: () => void;
  onNext?: () => void;
  /** Next shows only when the step is done (spec 000 section 4: an upload finished, a save succeeded). */
  isNextShown?: boolean;
  /** For a step whose Next saves a form: Next is the form's submit button. */
  isNextSubmit?: boolean;
  isNextLoading?: boolean;
  nextLabel?: string;
};

/** The Back and Next arrows under every step. */
export function StepNav({
  onBack,
  onNext,
  isNextShown = true,
  isNextSubmit = false,
  isNextLoading = false,
  nextLabel = 'Next',
}: StepNavProps) {
  return (
    <Group justify="space-between" mt="md" wrap="nowrap">
      {onBack ? (
        <Button variant="default" onClick={onBack} leftSection={<span aria-hidden>←</span>}>
          Back
        </Button>
      ) : (
        <span />
      )}
      {isNextShown && (
        <Button
          type={isNextSubmit ? 'submit' : 'button'}
          onClick={isNextSubmit ? undefined : onNext}
          loading={isNextLoading}
          rightSection={<span aria-hidden>→</span>}
        >
          {nextLabel}
        </Button>
      )}
    </Group>
  );
}
