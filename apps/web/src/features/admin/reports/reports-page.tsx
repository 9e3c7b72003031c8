import { CARF_TEXTS } from '@florin/contracts';
import { Button, Group, List, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { AdminNotFound } from '../components/admin-not-found';
import { REPORTS_SCREEN_ROLES, mayOpen, useSignedInStaff } from '../staff-access';
import { carfExportUrl, carfYears } from './api/export-carf';

/** `/admin/reports` (compliance, finance, superadmin): the regulatory files Florin sends, as downloads. */
export function ReportsPage() {
  const me = useSignedInStaff();
  if (!mayOpen(me.role, REPORTS_SCREEN_ROLES)) return <AdminNotFound />;
  return <ReportsScreen />;
}

function ReportsScreen() {
  const years = carfYears();
  // The last full year once there is one: that is the year HMRC asks for.
  const [year, setYear] = useState(String(years[1] ?? years[0]));

  return (
    <Stack gap="md" maw={900}>
      <title>Reports · Florin back office</title>
      <Title order={1} fz={{ base: 24, sm: 28 }}>
        {CARF_TEXTS.title}
      </Title>

      <Paper
        component="section"
        aria-labelledby="carf-heading"
        withBorder
        radius="md"
        p={{ base: 'sm', sm: 'lg' }}
      >
        <Stack gap="sm">
          <Title order={2} fz={{ base: 18, sm: 20 }} id="carf-heading">
            {CARF_TEXTS.carfHeading}
          </Title>
          <List size="sm" spacing={6}>
            <List.Item>{CARF_TEXTS.carfIntro}</List.Item>
            <List.Item>{CARF_TEXTS.carfGbpNote}</List.Item>
            <List.Item>{CARF_TEXTS.carfAudit}</List.Item>
          </List>
          <Group align="flex-end" gap="sm">
            <NativeSelect
              label={CARF_TEXTS.yearLabel}
              data={years.map(String)}
              value={year}
              onChange={(event) => setYear(event.currentTarget.value)}
              w={{ base: '100%', xs: 200 }}
            />
            <Button component="a" href={carfExportUrl(Number(year))} download>
              {CARF_TEXTS.exportCarf}
            </Button>
          </Group>
          <Text size="xs" c="dimmed">
            The file is CSV (UTF-8), one row per customer and cryptoasset; amounts are decimal figures in the
            asset and in pounds.
          </Text>
        </Stack>
      </Paper>
    </Stack>
  );
}
