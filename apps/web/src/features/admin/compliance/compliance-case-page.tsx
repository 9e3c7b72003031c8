import {
  COMPLIANCE_ROLES,
  DECLARATIONS,
  DOCUMENT_REVIEW_TRANSITIONS,
  WEALTH_CHOICES,
  WEALTH_QUESTIONS,
  sanctionsMatchBlocker,
  type AdminDocument,
  type CaseCompany,
  type ComplianceCase,
  type Declaration,
  type KycAnswers,
  type WealthQuestion,
} from '@florin/contracts';
import { countryName } from '@florin/domain';
import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  List,
  Loader,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { formatDateTime } from '../../../lib/format';
import { showSuccessToast } from '../../../lib/toasts';
import { ADMIN_PATHS, customerPath } from '../admin-paths';
import { AdminNotFound } from '../components/admin-not-found';
import { ReasonedButton } from '../components/reasoned-button';
import { mayOpen, useSignedInStaff } from '../staff-access';
import { useLiftHold, usePutOnHold } from './api/account-hold';
import { useApproveDocument } from './api/approve-document';
import { useComplianceCase } from './api/get-case';
import { useMakeLive } from './api/make-live';
import { useResetSourceOfWealth } from './api/reset-source-of-wealth';
import { AccountBadges } from './account-badges';
import { DeclineDocumentModal } from './components/decline-document-modal';
import {
  CustomerFacts,
  DocumentStatusBadge,
  Fact,
  Section,
  VerificationStepList,
} from './components/customer-facts';
import { DocumentViewer } from './components/document-viewer';
import { ReasonModal } from './components/reason-modal';

const WEALTH_LABELS: Record<WealthQuestion, string> = {
  initial_investment: 'First investment',
  annual_income: 'Annual income',
  net_worth: 'Net worth',
  investment_portfolio: 'Investment portfolio',
  source_of_wealth: 'Source of wealth',
  experience: 'Investing experience',
  investment_trades: 'Investment trades',
};

const DECLARATION_LABELS: Record<Declaration, string> = {
  offense: 'Financial offence',
  criminal: 'Unspent criminal conviction',
  caution: 'Police caution',
  ccj: 'County Court Judgment',
};

function userIdFrom(value: string | undefined): number | null {
  const id = Number(value);
  return Number.isInteger(id) && id > 0 && id <= 2_147_483_647 ? id : null;
}

function choiceLabel(question: WealthQuestion, value: string | null): string | null {
  if (value === null) return null;
  const choices: Record<string, string> = WEALTH_CHOICES[question];
  return choices[value] ?? value;
}

function Answers({ kyc, isSowReset }: { kyc: KycAnswers | null; isSowReset: boolean }) {
  if (!kyc)
    return (
      <Text size="sm" c="dimmed">
        Not answered yet.
      </Text>
    );
  return (
    <Stack gap="sm">
      {isSowReset && (
        <Alert color="yellow" variant="light" title="Asked again">
          The customer has been asked to answer these questions again; the answers below are the previous
          ones.
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <Fact label="Trades more than £15,000 a year">{kyc.trades_over_threshold === 1 ? 'Yes' : 'No'}</Fact>
        <Fact label="Understands the risk">{kyc.aware_of_risk === 1 ? 'Yes' : 'No'}</Fact>
        {kyc.trades_over_threshold === 1 &&
          WEALTH_QUESTIONS.map((question) => (
            <Fact key={question} label={WEALTH_LABELS[question]}>
              {choiceLabel(question, kyc[question])}
            </Fact>
          ))}
        {kyc.trades_over_threshold === 1 &&
          DECLARATIONS.map((declaration) => (
            <Fact key={declaration} label={DECLARATION_LABELS[declaration]}>
              {kyc[declaration] === 1 ? `Yes: ${kyc[`${declaration}_details`] ?? ''}` : 'No'}
            </Fact>
          ))}
      </SimpleGrid>
    </Stack>
  );
}

function Company({ company }: { company: CaseCompany }) {
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <Fact label="Company name">{company.name}</Fact>
        <Fact label="Company number">{company.company_number}</Fact>
        <Fact label="Registered address">{`${company.address}, ${company.city}, ${company.zip}`}</Fact>
        <Fact label="Country">{countryName(company.country)}</Fact>
      </SimpleGrid>
      <Title order={3} fz="md">
        Directors and owners
      </Title>
      {company.directors.length === 0 ? (
        <Text size="sm" c="dimmed">
          None declared.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table aria-label="Directors and owners" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Shareholding</Table.Th>
                <Table.Th>Date of birth</Table.Th>
                <Table.Th>Address</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {company.directors.map((director) => (
                <Table.Tr key={director.id}>
                  <Table.Td>
                    {director.first_name} {director.last_name}
                  </Table.Td>
                  <Table.Td>
                    {[director.owner && 'Owner', director.director && 'Director'].filter(Boolean).join(', ')}
                  </Table.Td>
                  <Table.Td>{director.share_holding} %</Table.Td>
                  <Table.Td>{director.birthdate}</Table.Td>
                  <Table.Td>
                    {director.address}, {director.city}, {director.zip}, {countryName(director.country)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

function documentTitle(document: AdminDocument): string {
  return document.director_name ? `${document.label} — ${document.director_name}` : document.label;
}

function DocumentCard({
  document,
  userId,
  onDecline,
}: {
  document: AdminDocument;
  userId: number;
  onDecline: (document: AdminDocument) => void;
}) {
  const approve = useApproveDocument(userId);
  const allowed = DOCUMENT_REVIEW_TRANSITIONS[document.status];
  const title = documentTitle(document);
  return (
    <Card withBorder radius="md" padding="sm" component="article" aria-label={title}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Title order={3} fz="md">
            {title}
          </Title>
          <DocumentStatusBadge status={document.status} />
        </Group>
        <Text size="xs" c="dimmed">
          Uploaded {formatDateTime(document.created_at)}
          {document.reviewed_at &&
            ` · reviewed ${formatDateTime(document.reviewed_at)}${document.reviewed_by ? ` by ${document.reviewed_by}` : ''}`}
        </Text>
        {document.status === 'declined' && document.disapprove_note && (
          <Alert color="red" variant="light" title="Cause of rejection">
            {document.disapprove_note}
          </Alert>
        )}
        <DocumentViewer document={document} />
        {allowed.length > 0 && (
          <Group gap="xs" justify="flex-end">
            {allowed.includes('declined') && (
              <Button variant="light" color="red" size="sm" onClick={() => onDecline(document)}>
                Decline
              </Button>
            )}
            {allowed.includes('approved') && (
              <Button
                color="teal"
                size="sm"
                loading={approve.isPending}
                aria-label={`Approve ${title}`}
                onClick={() =>
                  approve.mutate(document.id, {
                    onSuccess: (answer) =>
                      showSuccessToast({ title: 'Document approved', message: answer.message }),
                  })
                }
              >
                Approve
              </Button>
            )}
          </Group>
        )}
      </Stack>
    </Card>
  );
}

function ReplacedDocuments({ documents }: { documents: AdminDocument[] }) {
  const [shownId, setShownId] = useState<number | null>(null);
  if (documents.length === 0) return null;
  return (
    <Section title="Earlier uploads">
      <Text size="sm" c="dimmed">
        Documents the customer has since replaced, kept as a record.
      </Text>
      <Stack gap="xs">
        {documents.map((document) => (
          <Stack key={document.id} gap={4}>
            <Group justify="space-between">
              <Text size="sm">
                {documentTitle(document)} · uploaded {formatDateTime(document.created_at)}
              </Text>
              <Button
                variant="subtle"
                size="xs"
                onClick={() => setShownId(shownId === document.id ? null : document.id)}
              >
                {shownId === document.id ? 'Hide' : 'View'}
              </Button>
            </Group>
            {shownId === document.id && <DocumentViewer document={document} />}
          </Stack>
        ))}
      </Stack>
    </Section>
  );
}

type ReasonAction = 'hold' | 'lift' | 'sow';

function AccountActions({ data }: { data: ComplianceCase }) {
  const { customer, go_live: goLive } = data;
  const makeLive = useMakeLive(customer.id);
  const hold = usePutOnHold(customer.id);
  const lift = useLiftHold(customer.id);
  const resetSow = useResetSourceOfWealth(customer.id);
  const [reasonAction, setReasonAction] = useState<ReasonAction | null>(null);
  const name = `${customer.first_name} ${customer.last_name}`;

  const confirmMakeLive = () =>
    modals.openConfirmModal({
      title: 'Make the account live',
      centered: true,
      children: (
        <Text size="sm">
          {name} will be able to deposit, trade and withdraw. We e-mail them that their account is live.
        </Text>
      ),
      labels: { confirm: 'Make live', cancel: 'Cancel' },
      confirmProps: { color: 'teal' },
      onConfirm: () =>
        makeLive.mutate(undefined, {
          onSuccess: (answer) => showSuccessToast({ title: 'Account live', message: answer.message }),
        }),
    });

  // A sanctions hit keeps the hold on: the server refuses to lift it, so the button says why first.
  const liftBlocker = data.sanctions_match ? sanctionsMatchBlocker(data.sanctions_match) : null;

  return (
    <>
      <Group gap="xs">
        {customer.status !== 1 && (
          <ReasonedButton
            color="teal"
            onClick={confirmMakeLive}
            loading={makeLive.isPending}
            reason={goLive.allowed ? null : goLive.blockers.join(' ')}
          >
            Make live
          </ReasonedButton>
        )}
        {customer.block_status === 2 ? (
          <ReasonedButton variant="default" onClick={() => setReasonAction('lift')} reason={liftBlocker}>
            Lift hold
          </ReasonedButton>
        ) : (
          <Button variant="light" color="red" onClick={() => setReasonAction('hold')}>
            Put on hold
          </Button>
        )}
        {data.kyc && customer.is_sow_reset !== 1 && (
          <Button variant="default" onClick={() => setReasonAction('sow')}>
            Reset source of wealth
          </Button>
        )}
      </Group>
      <ReasonModal
        opened={reasonAction === 'hold'}
        onClose={() => setReasonAction(null)}
        title="Put the account on hold"
        description={`${name} will not be able to trade, deposit or withdraw until the hold is lifted. We e-mail them to contact support; the reason stays with us.`}
        confirmLabel="Put on hold"
        color="red"
        isPending={hold.isPending}
        onSubmit={(reason) => hold.mutateAsync(reason)}
        successTitle="Account on hold"
        errorTitle="Not put on hold"
      />
      <ReasonModal
        opened={reasonAction === 'lift'}
        onClose={() => setReasonAction(null)}
        title="Lift the hold"
        description={`${name} will be able to use the account again. We e-mail them that the hold is lifted.`}
        confirmLabel="Lift hold"
        isPending={lift.isPending}
        onSubmit={(reason) => lift.mutateAsync(reason)}
        successTitle="Hold lifted"
        errorTitle="Hold not lifted"
      />
      <ReasonModal
        opened={reasonAction === 'sow'}
        onClose={() => setReasonAction(null)}
        title="Reset source of wealth"
        description={`${name} will be asked to answer the source-of-wealth questions again; buying and withdrawing wait until they do.`}
        confirmLabel="Reset source of wealth"
        isPending={resetSow.isPending}
        onSubmit={(reason) => resetSow.mutateAsync(reason)}
        successTitle="Source of wealth reset"
        errorTitle="Not reset"
      />
    </>
  );
}

/** `/admin/compliance/:userId` (compliance): one customer's verification, decided document by document. */
export function ComplianceCasePage() {
  const me = useSignedInStaff();
  const userId = userIdFrom(useParams().userId);
  if (!mayOpen(me.role, COMPLIANCE_ROLES) || userId === null) return <AdminNotFound />;
  return <CaseScreen userId={userId} canSeeAuditLog={mayOpen(me.role, ['compliance'])} />;
}

function CaseScreen({ userId, canSeeAuditLog }: { userId: number; canSeeAuditLog: boolean }) {
  const { data, isError } = useComplianceCase(userId);
  const [declining, setDeclining] = useState<AdminDocument | null>(null);

  if (!data) {
    return isError ? (
      <Stack gap="md">
        <Text c="dimmed">This case could not be loaded. Reload the page to try again.</Text>
        <Anchor component={Link} to={ADMIN_PATHS.compliance}>
          Back to the queue
        </Anchor>
      </Stack>
    ) : (
      <Group justify="center" p="xl">
        <Loader aria-label="Loading the case" />
      </Group>
    );
  }

  const { customer } = data;
  const name = `${customer.first_name} ${customer.last_name}`;
  return (
    <Stack gap="md" maw={1200}>
      <title>{`${name} · Compliance · Florin back office`}</title>
      <Anchor component={Link} to={ADMIN_PATHS.compliance} size="sm">
        ← Compliance queue
      </Anchor>
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={4}>
          <Title order={1} fz={{ base: 24, sm: 28 }}>
            {name}
          </Title>
          <Group gap="xs">
            <Text size="sm" ff="monospace">
              {customer.user_identification}
            </Text>
            <Text size="sm" c="dimmed">
              {customer.account_type ?? 'Account type not chosen'}
            </Text>
            <AccountBadges status={customer.status} blockStatus={customer.block_status} />
          </Group>
          <Group gap="md">
            <Anchor component={Link} to={customerPath(customer.id)} size="sm">
              Customer page
            </Anchor>
            {canSeeAuditLog && (
              <Anchor
                component={Link}
                to={`${ADMIN_PATHS.auditLog}?target_type=user&target_id=${customer.id}`}
                size="sm"
              >
                Audit log
              </Anchor>
            )}
          </Group>
        </Stack>
        <AccountActions data={data} />
      </Group>

      {customer.block_status === 2 && (
        <Alert color="red" title="On hold">
          {customer.block_reason ?? 'No reason recorded.'}
        </Alert>
      )}
      {customer.status === 1 ? (
        <Alert color="teal" title="Live">
          Live since {customer.live_since ? formatDateTime(customer.live_since) : 'before records began'}.
        </Alert>
      ) : (
        !data.go_live.allowed && (
          <Alert color="yellow" title="Not ready to go live">
            <List size="sm">
              {data.go_live.blockers.map((blocker) => (
                <List.Item key={blocker}>{blocker}</List.Item>
              ))}
            </List>
          </Alert>
        )
      )}

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Section title="Details">
          <CustomerFacts customer={customer} />
        </Section>
        <Stack gap="md">
          <Section title="Verification">
            <VerificationStepList steps={data.steps} />
          </Section>
          <Section title="Source of wealth">
            <Answers kyc={data.kyc} isSowReset={customer.is_sow_reset === 1} />
          </Section>
        </Stack>
      </SimpleGrid>

      {data.company && (
        <Section title="Company">
          <Company company={data.company} />
        </Section>
      )}

      <Section title="Documents">
        {data.documents.length === 0 ? (
          <Text size="sm" c="dimmed">
            No documents uploaded yet.
          </Text>
        ) : (
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            {data.documents.map((document) => (
              <DocumentCard key={document.id} document={document} userId={userId} onDecline={setDeclining} />
            ))}
          </SimpleGrid>
        )}
      </Section>

      <ReplacedDocuments documents={data.replaced_documents} />
      <DeclineDocumentModal userId={userId} document={declining} onClose={() => setDeclining(null)} />
    </Stack>
  );
}
