import type { StaffMember, StaffRole } from '@florin/contracts';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { showSuccessToast } from '../../../lib/toasts';
import { useChangeStaffRole } from '../api/change-staff-role';
import { RoleSelect } from './role-select';

/** A new role for one member; it applies from their next request. */
export function ChangeRoleModal({ member, onClose }: { member: StaffMember | null; onClose: () => void }) {
  return (
    <Modal opened={member !== null} onClose={onClose} title="Change role" centered>
      {member && <ChangeRoleForm key={member.id} member={member} onClose={onClose} />}
    </Modal>
  );
}

function ChangeRoleForm({ member, onClose }: { member: StaffMember; onClose: () => void }) {
  const [role, setRole] = useState<StaffRole | null>(member.role);
  const change = useChangeStaffRole();

  const handleSave = () => {
    if (!role) return;
    change.mutate(
      { staffId: member.id, role },
      {
        onSuccess: (answer) => {
          showSuccessToast({ title: 'Role changed', message: `${member.email}: ${answer.message}` });
          onClose();
        },
      },
    );
  };

  return (
    <Stack gap="md">
      <Text size="sm">
        {member.email} gets the new role from their next request. Every change is written to the audit log.
      </Text>
      <RoleSelect value={role} onChange={setRole} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={handleSave} loading={change.isPending} disabled={!role || role === member.role}>
          Save role
        </Button>
      </Group>
    </Stack>
  );
}
