import { STAFF_ROLE_LABELS, type StaffMember } from '@florin/contracts';
import {
  Badge,
  Box,
  Button,
  Group,
  Loader,
  Menu,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { useState } from 'react';
import { formatDateTime } from '../../lib/format';
import { showSuccessToast } from '../../lib/toasts';
import { useDisableStaffMember } from './api/disable-staff';
import { useEnableStaffMember } from './api/enable-staff';
import { useStaffList } from './api/list-staff';
import { useResetStaffTwoFactor } from './api/reset-staff-two-factor';
import { useSendStaffPasswordLink } from './api/send-staff-password-link';
import { AddStaffModal } from './components/add-staff-modal';
import { AdminNotFound } from './components/admin-not-found';
import { ChangeRoleModal } from './components/change-role-modal';
import { mayOpen, useSignedInStaff } from './staff-access';

function StatusBadge({ member }: { member: StaffMember }) {
  if (member.disabled)
    return (
      <Badge color="red" variant="light">
        Disabled
      </Badge>
    );
  if (!member.password_set)
    return (
      <Badge color="yellow" variant="light">
        Invited
      </Badge>
    );
  if (!member.two_factor_enrolled)
    return (
      <Badge color="orange" variant="light">
        2FA not set up
      </Badge>
    );
  return (
    <Badge color="teal" variant="light">
      Active
    </Badge>
  );
}

type MemberActions = {
  onChangeRole: (member: StaffMember) => void;
  onDisable: (member: StaffMember) => void;
  onEnable: (member: StaffMember) => void;
  onResetTwoFactor: (member: StaffMember) => void;
  onSendPasswordLink: (member: StaffMember) => void;
};

/** What a superadmin may do to a member; never demote, disable or reset themselves (the server refuses it too). */
function MemberMenu({
  member,
  isSelf,
  actions,
}: {
  member: StaffMember;
  isSelf: boolean;
  actions: MemberActions;
}) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="default" size="xs" aria-label={`Actions for ${member.email}`}>
          Actions
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {!isSelf && <Menu.Item onClick={() => actions.onChangeRole(member)}>Change role</Menu.Item>}
        {!isSelf && member.two_factor_enrolled && (
          <Menu.Item onClick={() => actions.onResetTwoFactor(member)}>Reset 2FA</Menu.Item>
        )}
        <Menu.Item onClick={() => actions.onSendPasswordLink(member)}>Send password link</Menu.Item>
        {!isSelf &&
          (member.disabled ? (
            <Menu.Item onClick={() => actions.onEnable(member)}>Enable</Menu.Item>
          ) : (
            <Menu.Item color="red" onClick={() => actions.onDisable(member)}>
              Disable
            </Menu.Item>
          ))}
      </Menu.Dropdown>
    </Menu>
  );
}

function StaffTable({
  staff,
  selfId,
  actions,
}: {
  staff: StaffMember[];
  selfId: number;
  actions: MemberActions;
}) {
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table verticalSpacing="sm" highlightOnHover aria-label="Staff">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Email</Table.Th>
            <Table.Th>Role</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Last sign-in</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {staff.map((member) => (
            <Table.Tr key={member.id}>
              <Table.Td>
                <Group gap={6} wrap="nowrap">
                  <Text size="sm" fw={500}>
                    {member.email}
                  </Text>
                  {member.id === selfId && (
                    <Badge size="xs" variant="outline">
                      You
                    </Badge>
                  )}
                </Group>
              </Table.Td>
              <Table.Td>{STAFF_ROLE_LABELS[member.role]}</Table.Td>
              <Table.Td>
                <StatusBadge member={member} />
              </Table.Td>
              <Table.Td>
                <Text size="sm" c={member.last_sign_in_at ? undefined : 'dimmed'}>
                  {member.last_sign_in_at ? formatDateTime(member.last_sign_in_at) : 'Never'}
                </Text>
              </Table.Td>
              <Table.Td ta="right">
                <MemberMenu member={member} isSelf={member.id === selfId} actions={actions} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** On a phone: one card per member instead of a table wider than the screen. */
function StaffCards({
  staff,
  selfId,
  actions,
}: {
  staff: StaffMember[];
  selfId: number;
  actions: MemberActions;
}) {
  return (
    <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Staff">
      {staff.map((member) => (
        <Paper key={member.id} component="li" withBorder radius="md" p="sm">
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
            <Stack gap={4} miw={0}>
              <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                {member.email}
              </Text>
              <Group gap={6}>
                <Text size="sm">{STAFF_ROLE_LABELS[member.role]}</Text>
                <StatusBadge member={member} />
                {member.id === selfId && (
                  <Badge size="xs" variant="outline">
                    You
                  </Badge>
                )}
              </Group>
              <Text size="xs" c="dimmed">
                Last sign-in: {member.last_sign_in_at ? formatDateTime(member.last_sign_in_at) : 'never'}
              </Text>
            </Stack>
            <Box style={{ flexShrink: 0 }}>
              <MemberMenu member={member} isSelf={member.id === selfId} actions={actions} />
            </Box>
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}

/** `/admin/staff` (superadmin): every staff account, and adding, role changes, disabling and 2FA resets. */
export function StaffPage() {
  const me = useSignedInStaff();
  if (!mayOpen(me.role, [])) return <AdminNotFound />;
  return <StaffScreen selfId={me.id} />;
}

function StaffScreen({ selfId }: { selfId: number }) {
  const { data: staff, isError } = useStaffList();
  const [isAdding, setIsAdding] = useState(false);
  const [roleTarget, setRoleTarget] = useState<StaffMember | null>(null);
  const disable = useDisableStaffMember();
  const enable = useEnableStaffMember();
  const resetTwoFactor = useResetStaffTwoFactor();
  const sendLink = useSendStaffPasswordLink();

  const done = (title: string) => (answer: { message: string }) =>
    showSuccessToast({ title, message: answer.message });

  const actions: MemberActions = {
    onChangeRole: setRoleTarget,
    onDisable: (member) =>
      modals.openConfirmModal({
        title: 'Disable staff member',
        centered: true,
        children: (
          <Text size="sm">
            {member.email} will be signed out at once and cannot sign in until a superadmin enables the
            account again.
          </Text>
        ),
        labels: { confirm: 'Disable', cancel: 'Cancel' },
        confirmProps: { color: 'red' },
        onConfirm: () => disable.mutate(member.id, { onSuccess: done('Staff member disabled') }),
      }),
    onEnable: (member) => enable.mutate(member.id, { onSuccess: done('Staff member enabled') }),
    onResetTwoFactor: (member) =>
      modals.openConfirmModal({
        title: 'Reset two-factor authentication',
        centered: true,
        children: (
          <Text size="sm">
            Only after you have confirmed who is asking. {member.email} will be signed out and must set up an
            authenticator again at their next sign-in.
          </Text>
        ),
        labels: { confirm: 'Reset 2FA', cancel: 'Cancel' },
        confirmProps: { color: 'red' },
        onConfirm: () =>
          resetTwoFactor.mutate(member.id, { onSuccess: done('Two-factor authentication reset') }),
      }),
    onSendPasswordLink: (member) =>
      sendLink.mutate(member.id, { onSuccess: done(`Link sent to ${member.email}`) }),
  };

  return (
    <Stack gap="md" maw={1100}>
      <title>Staff · Florin back office</title>
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={1} fz={{ base: 24, sm: 28 }}>
            Staff
          </Title>
          <Text size="sm" c="dimmed">
            Who can use the back office, and with which role.
          </Text>
        </Stack>
        <Button onClick={() => setIsAdding(true)}>Add staff member</Button>
      </Group>
      <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }}>
        {isError && !staff && (
          <Text c="dimmed" p="md">
            The staff list could not be loaded. Reload the page to try again.
          </Text>
        )}
        {!isError && !staff && (
          <Group justify="center" p="xl">
            <Loader aria-label="Loading staff" />
          </Group>
        )}
        {staff && (
          <>
            <Box visibleFrom="sm">
              <StaffTable staff={staff} selfId={selfId} actions={actions} />
            </Box>
            <Box hiddenFrom="sm">
              <StaffCards staff={staff} selfId={selfId} actions={actions} />
            </Box>
          </>
        )}
      </Paper>
      <AddStaffModal opened={isAdding} onClose={() => setIsAdding(false)} />
      <ChangeRoleModal member={roleTarget} onClose={() => setRoleTarget(null)} />
    </Stack>
  );
}
