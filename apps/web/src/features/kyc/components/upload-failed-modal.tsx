import { Anchor, Button, Code, Group, Modal, Stack, Text } from '@mantine/core';
import { complianceMailSubject } from '../verification';

type UploadFailedModalProps = {
  opened: boolean;
  onClose: () => void;
  user: { first_name: string; last_name: string; user_identification: string; compliance_email: string };
};

/**
 * Spec 000 section 8: when an account document cannot be uploaded, the customer can still send
 * it to compliance by e-mail, with a subject that lets staff match it to the account.
 */
export function UploadFailedModal({ opened, onClose, user }: UploadFailedModalProps) {
  const subject = complianceMailSubject(user);
  const mailto = `mailto:${user.compliance_email}?subject=${encodeURIComponent(subject)}`;
  return (
    <Modal
      closeButtonProps={{ 'aria-label': 'Close' }}
      opened={opened}
      onClose={onClose}
      title="Upload failed"
      centered
    >
      <Stack gap="md">
        <Text size="sm">
          We could not upload your document. Please email the file to{' '}
          <Anchor href={mailto}>{user.compliance_email}</Anchor> with the subject:
        </Text>
        <Code block>{subject}</Code>
        <Text size="sm" c="dimmed">
          Our compliance team will add it to your account.
        </Text>
        <Group justify="flex-end">
          <Button onClick={onClose}>OK</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
