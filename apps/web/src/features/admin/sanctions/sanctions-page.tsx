import {
  ConfirmMatchBodySchema,
  DelistedBodySchema,
  FalsePositiveBodySchema,
  SANCTIONS_TEXTS,
  SanctionsHitStatusSchema,
  type SanctionsHit,
  type SanctionsHitStatus,
  type ScreeningSubjectKind,
} from '@florin/contracts';
import {
  Anchor,
  Badge,
  Box,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { z } from 'zod';
import { Link, useSearchParams } from 'react-router';
import { formatDateTime } from '../../../lib/format';
import { customerPath } from '../admin-paths';
import { ReasonModal } from '../compliance/components/reason-modal';
import { AdminNotFound } from '../components/admin-not-found';
import { ReasonedButton } from '../components/reasoned-button';
import { PagedResults } from '../components/paged-results';
import { mayOpen, SANCTIONS_SCREEN_ROLES, useSignedInStaff } from '../staff-access';
import { useReviewHit, type HitDecision } from './api/review-hit';
import { useSanctionsHits, type SanctionsHitsFilter } from './api/list-hits';
import { listDate, ListPanel, ImportPanel } from './components/list-panels';

const SUBJECT_LABELS: Record<ScreeningSubjectKind, string> = {
  customer: 'Customer',
  company: 'Company',
  director: 'Director or owner',
};

/** The note's rules and texts, as the reason modal's one field. */
const FALSE_POSITIVE_NOTE = z.strictObject({ reason: FalsePositiveBodySchema.shape.note });
const CONFIRMED_NOTE = z.strictObject({ reason: ConfirmMatchBodySchema.shape.note });
const DELISTED_NOTE = z.strictObject({ reason: DelistedBodySchema.shape.note });

/** Each list of hits: its heading, its filter's label and what it says when empty. */
const HIT_LISTS: Record<SanctionsHitStatus, { title: string; label: string; empty: string }> = {
  open: { title: 'Open hits', label: 'Open', empty: 'No open hits.' },
  false_positive: {
    title: 'False positives',
    label: 'False positives',
    empty: 'No hits marked as false positives.',
  },
  confirmed: { title: 'Confirmed matches', label: 'Confirmed', empty: 'No confirmed matches.' },
  delisted: { title: 'Delisted', label: 'Delisted', empty: 'No delisted matches.' },
};
function filterFrom(searchParams: URLSearchParams): SanctionsHitsFilter {
  const page = Number(searchParams.get('page'));
  const status = SanctionsHitStatusSchema.catch('open').parse(searchParams.get('status'));
  return { page: Number.isInteger(page) && page >= 1 ? page : 1, status };
}

function CustomerCell({ hit }: { hit: SanctionsHit }) {
  return (
    <Stack gap={2}>
      <Anchor component={Link} to={customerPath(hit.user_id)} fw={600} size="sm">
        {hit.customer_name}
      </Anchor>
      <Group gap={4}>
        <Text size="xs" c="dimmed">
          {hit.user_identification}
        </Text>
        {hit.block_status === 2 && (
          <Badge color="red" variant="light" size="xs">
            On hold
          </Badge>
        )}
      </Group>
    </Stack>
  );
}

function ScreenedCell({ hit }: { hit: SanctionsHit }) {
  return (
    <Stack gap={0}>
      <Text size="sm">{hit.subject_name}</Text>
      <Text size="xs" c="dimmed">
        {SUBJECT_LABELS[hit.subject_kind]}
        {hit.subject_birthdate ? `, born ${listDate(hit.subject_birthdate)}` : ''}
      </Text>
    </Stack>
  );
}

function ListedCell({ hit }: { hit: SanctionsHit }) {
  return (
    <Stack gap={0}>
      <Text size="sm" fw={600}>
        {hit.listed_name}
      </Text>
      <Text size="xs" c="dimmed">
        {hit.group_type} · group {hit.group_id}
        {hit.regime ? ` · ${hit.regime}` : ''}
      </Text>
      {hit.listed_dobs && (
        <Text size="xs" c="dimmed">
          Born {hit.listed_dobs}
        </Text>
      )}
    </Stack>
  );
}

type Review = { hit: SanctionsHit; decision: HitDecision };

function Decision({ hit, onReview }: { hit: SanctionsHit; onReview: (review: Review) => void }) {
  if (hit.status === 'open') {
    return (
      <Group gap={6}>
        <Button
          size="compact-sm"
          variant="light"
          onClick={() => onReview({ hit, decision: 'false_positive' })}
          aria-label={`Mark false positive: ${hit.subject_name}`}
        >
          Mark false positive
        </Button>
        <Button
          size="compact-sm"
          variant="light"
          color="red"
          onClick={() => onReview({ hit, decision: 'confirmed' })}
          aria-label={`Confirm match: ${hit.subject_name}`}
        >
          Confirm match
        </Button>
      </Group>
    );
  }
  return (
    <Stack gap={6}>
      <DecisionNote note={hit.review_note} at={hit.reviewed_at} by={hit.reviewed_by} />
      {hit.status === 'delisted' && (
        <DecisionNote label="Delisted" note={hit.delisted_note} at={hit.delisted_at} by={hit.delisted_by} />
      )}
      {hit.status === 'confirmed' && (
        <Box>
          <ReasonedButton
            size="compact-sm"
            variant="light"
            onClick={() => onReview({ hit, decision: 'delisted' })}
            reason={hit.still_listed ? SANCTIONS_TEXTS.stillListed : null}
            aria-label={`Record delisting: ${hit.subject_name}`}
          >
            Record delisting
          </ReasonedButton>
        </Box>
      )}
    </Stack>
  );
}

/** A decision's note, with when and by whom. */
function DecisionNote({
  label,
  note,
  at,
  by,
}: {
  label?: string;
  note: string | null;
  at: string | null;
  by: string | null;
}) {
  return (
    <Stack gap={0}>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {label && <b>{label}: </b>}
        {note}
      </Text>
      <Text size="xs" c="dimmed">
        {at ? formatDateTime(at) : ''}
        {by ? `, ${by}` : ''}
      </Text>
    </Stack>
  );
}

function HitTable({ hits, onReview }: { hits: SanctionsHit[]; onReview: (review: Review) => void }) {
  return (
    <Table verticalSpacing="sm" aria-label="Screening hits" layout="fixed">
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={150}>Found</Table.Th>
          <Table.Th w={200}>Customer</Table.Th>
          <Table.Th>Screened</Table.Th>
          <Table.Th>Listed as</Table.Th>
          <Table.Th w={240}>Decision</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {hits.map((hit) => (
          <Table.Tr key={hit.id} style={{ verticalAlign: 'top' }}>
            <Table.Td>
              <Text size="sm">{formatDateTime(hit.found_at)}</Text>
            </Table.Td>
            <Table.Td>
              <CustomerCell hit={hit} />
            </Table.Td>
            <Table.Td>
              <ScreenedCell hit={hit} />
            </Table.Td>
            <Table.Td>
              <ListedCell hit={hit} />
            </Table.Td>
            <Table.Td>
              <Decision hit={hit} onReview={onReview} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** On a phone: one card per hit instead of a table wider than the screen. */
function HitCards({ hits, onReview }: { hits: SanctionsHit[]; onReview: (review: Review) => void }) {
  return (
    <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Screening hits">
      {hits.map((hit) => (
        <Paper key={hit.id} component="li" withBorder radius="md" p="sm">
          <Stack gap={8}>
            <Group justify="space-between" align="flex-start" gap="xs">
              <CustomerCell hit={hit} />
              <Text size="xs" c="dimmed">
                {formatDateTime(hit.found_at)}
              </Text>
            </Group>
            <ScreenedCell hit={hit} />
            <ListedCell hit={hit} />
            <Decision hit={hit} onReview={onReview} />
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

function HitsPanel() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filter = filterFrom(searchParams);
  const { data, isError, isFetching } = useSanctionsHits(filter);
  const isNarrow = useMediaQuery('(max-width: 36em)');
  // The last hit reviewed stays in the modal's texts while it closes.
  const [review, setReview] = useState<Review | null>(null);
  const [reviewing, setReviewing] = useState(false);
  const decision = review?.decision ?? 'false_positive';
  const reviewHit = useReviewHit(review?.hit.id ?? 0, decision);
  const startReview = (next: Review) => {
    setReview(next);
    setReviewing(true);
  };
  const hit = review?.hit;
  const listed = hit ? `${hit.listed_name} (group ${hit.group_id})` : '';
  const modal =
    decision === 'delisted'
      ? {
          title: 'Record the delisting',
          description: `${hit ? `${listed} is no longer on the consolidated list. ` : ''}The hit stops holding the account; the hold stays until you lift it on the customer's case.`,
          reasonLabel: 'When was the designation revoked, and where did OFSI publish it?',
          schema: DELISTED_NOTE,
          confirmLabel: 'Record delisting',
          successTitle: 'Delisting recorded',
        }
      : decision === 'confirmed'
        ? {
            title: 'Confirm the match',
            color: 'red',
            description: `${hit ? `${hit.subject_name} is ${listed}. ` : ''}The account stays on hold, and the hold cannot be lifted while they are designated.`,
            reasonLabel: "What shows this is the listed person or entity? Give your OFSI report's reference.",
            schema: CONFIRMED_NOTE,
            confirmLabel: 'Confirm match',
            acknowledgement: 'I have reported this match to OFSI, or will do so now.',
            successTitle: 'Confirmed match recorded',
          }
        : {
            title: 'Mark as a false positive',
            description: `${hit ? `${hit.subject_name} is not ${listed}. ` : ''}The account stays on hold until you lift the hold on the customer's page.`,
            reasonLabel: 'Why is this not the listed person or entity?',
            schema: FALSE_POSITIVE_NOTE,
            confirmLabel: 'Mark false positive',
            successTitle: 'False positive recorded',
          };

  const applyFilter = (next: SanctionsHitsFilter) => {
    const params = new URLSearchParams();
    if (next.page > 1) params.set('page', String(next.page));
    if (next.status !== 'open') params.set('status', next.status);
    setSearchParams(params);
  };

  return (
    <Stack gap="sm" component="section" aria-labelledby="hits-heading">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={2}>
          <Title order={2} fz={18} id="hits-heading">
            {HIT_LISTS[filter.status].title}
          </Title>
          <Text size="sm" c="dimmed">
            Marking a hit as a false positive does not lift the hold: lift it on the customer&apos;s page. A
            confirmed match keeps the account on hold until the list no longer names it and you record the
            delisting.
          </Text>
        </Stack>
        <SegmentedControl
          aria-label="Hits to show"
          value={filter.status}
          onChange={(value) => applyFilter({ page: 1, status: value })}
          data={SanctionsHitStatusSchema.options.map((status) => ({
            value: status,
            label: HIT_LISTS[status].label,
          }))}
          // Four lists do not fit across a phone.
          orientation={isNarrow ? 'vertical' : 'horizontal'}
          fullWidth={isNarrow}
          w={isNarrow ? '100%' : undefined}
        />
      </Group>
      <PagedResults
        data={data}
        isError={isError}
        isFetching={isFetching}
        texts={{
          error: 'The hits could not be loaded. Reload the page to try again.',
          loading: 'Loading the hits',
          empty: HIT_LISTS[filter.status].empty,
        }}
        countText={(total) => (total === 1 ? '1 hit' : `${total} hits`)}
        onPage={(page) => applyFilter({ ...filter, page })}
      >
        {(hits) => (
          <>
            <Box visibleFrom="md">
              <HitTable hits={hits} onReview={startReview} />
            </Box>
            <Box hiddenFrom="md">
              <HitCards hits={hits} onReview={startReview} />
            </Box>
          </>
        )}
      </PagedResults>
      <ReasonModal
        {...modal}
        opened={reviewing}
        onClose={() => setReviewing(false)}
        isPending={reviewHit.isPending}
        onSubmit={(note) => reviewHit.mutateAsync(note)}
        errorTitle="The hit could not be updated"
      />
    </Stack>
  );
}

/** `/admin/sanctions` (compliance, superadmin): the consolidated list, its import, and the hits to review. */
export function SanctionsPage() {
  const me = useSignedInStaff();
  if (!mayOpen(me.role, SANCTIONS_SCREEN_ROLES)) return <AdminNotFound />;
  return (
    <Stack gap="md" maw={1200}>
      <title>Sanctions · Florin back office</title>
      <Stack gap={2}>
        <Title order={1} fz={{ base: 24, sm: 28 }}>
          Sanctions screening
        </Title>
        <Text size="sm" c="dimmed">
          Customers, companies and their directors and owners are screened against the active list when they
          submit verification, whenever a screened detail changes, and when a new list is imported.
        </Text>
      </Stack>
      <ListPanel />
      <ImportPanel />
      <HitsPanel />
    </Stack>
  );
}
