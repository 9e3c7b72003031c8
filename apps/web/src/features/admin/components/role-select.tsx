import { STAFF_ROLE_LABELS, STAFF_ROLES, type StaffRole } from '@florin/contracts';
import { Select, type SelectProps } from '@mantine/core';

const ROLE_OPTIONS = STAFF_ROLES.map((role) => ({ value: role, label: STAFF_ROLE_LABELS[role] }));

type RoleSelectProps = Omit<SelectProps, 'data' | 'value' | 'onChange'> & {
  value: StaffRole | null;
  onChange: (role: StaffRole | null) => void;
};

/** The four staff roles, by their screen names. */
export function RoleSelect({ value, onChange, ...props }: RoleSelectProps) {
  return (
    <Select
      label="Role"
      data={ROLE_OPTIONS}
      value={value}
      onChange={(next) =>
        onChange((STAFF_ROLES as readonly string[]).includes(next ?? '') ? (next as StaffRole) : null)
      }
      allowDeselect={false}
      comboboxProps={{ withinPortal: true }}
      {...props}
    />
  );
}
