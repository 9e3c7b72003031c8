import {
  ENQUIRY_TYPE_LABELS,
  ENQUIRY_TYPES,
  OPENING_HOURS,
  type EnquiryType,
  type SiteInfo,
} from '@florin/contracts';
import { Anchor, Button, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { useSiteInfo } from '../../../lib/site-info';
import { useIsHydrated } from '../../../lib/use-is-hydrated';
import { StaticPage } from '../static-page';
import { EnquiryModal } from './enquiry-modal';

type Contact = { label: string; about: string; email: (contacts: SiteInfo['contacts']) => string };

/** Spec 002 §2.13: support, business development, press and HR, in this order. */
const CONTACTS: readonly Contact[] = [
  {
    label: 'Support',
    about: 'Help with your account, deposits, withdrawals and trading.',
    email: (contacts) => contacts.support_email,
  },
  {
    label: 'Business development',
    about: 'Corporate accounts, partnerships and integrations.',
    email: (contacts) => contacts.business_email,
  },
  {
    label: 'Press',
    about: 'Media enquiries, interviews and press material.',
    email: (contacts) => contacts.press_email,
  },
  {
    label: 'HR',
    about: 'Careers and applications to join the Florin team.',
    email: (contacts) => contacts.hr_email,
  },
];

function ContactCards({ contacts }: { contacts: SiteInfo['contacts'] }) {
  return (
    <SimpleGrid
      cols={{ base: 1, sm: 2 }}
      spacing="md"
      component="ul"
      m={0}
      p={0}
      style={{ listStyle: 'none' }}
    >
      {CONTACTS.map((contact) => {
        const email = contact.email(contacts);
        return (
          <Paper key={contact.label} component="li" withBorder radius="md" p="md">
            <Stack gap={4}>
              <Title order={3} fz="lg">
                {contact.label}
              </Title>
              <Text size="sm" c="dimmed">
                {contact.about}
              </Text>
              <Anchor
                href={`mailto:${email}`}
                fw={600}
                underline="always"
                style={{ overflowWrap: 'anywhere' }}
              >
                {email}
              </Anchor>
            </Stack>
          </Paper>
        );
      })}
    </SimpleGrid>
  );
}

function OpeningHours({ phone }: { phone: string | null | undefined }) {
  return (
    <Paper withBorder radius="md" p="md" bg="florin.0">
      <Stack gap={4}>
        {phone && (
          <Text>
            Phone:{' '}
            <Anchor href={`tel:${phone.replace(/[^+\d]/g, '')}`} fw={600} underline="always">
              {phone}
            </Anchor>
          </Text>
        )}
        <Text fw={600}>{OPENING_HOURS}</Text>
        <Text size="sm" c="dimmed">
          {phone ? 'Our phone line is open' : 'Our team is available'} during these hours. We answer emails
          and enquiries as soon as we can within them.
        </Text>
      </Stack>
    </Paper>
  );
}

/**
 * `/contact-us` (spec 002 §2.13): who to write to, from configuration, the
 * phone line when there is one with its hours, and a Product Enquiry per kind
 * of question.
 */
export function ContactPage() {
  const { data: site, isPending, isError, refetch } = useSiteInfo();
  const [type, setType] = useState<EnquiryType>('general');
  const [isEnquiryOpen, enquiry] = useDisclosure(false);
  // The page is sent drawn (prerender.tsx): a tap before React has taken over would open nothing.
  const hydrated = useIsHydrated();

  const openEnquiry = (next: EnquiryType) => {
    setType(next);
    enquiry.open();
  };

  return (
    <StaticPage
      title="Contact us"
      description="How to reach Florin: email our support, business development, press and HR teams, call us in UK business hours, or send a product enquiry."
      lead={
        <Text c="dimmed">
          Questions about Florin or your account? Write to the right team, or send us an enquiry.
        </Text>
      }
      isProse={false}
    >
      <Stack gap="xl">
        <Stack component="section" gap="md" aria-labelledby="contacts-heading">
          <Title order={2} id="contacts-heading" fz="h3">
            Email us
          </Title>
          {site && <ContactCards contacts={site.contacts} />}
          {isPending && (
            <Group justify="center" p="md">
              <Loader aria-label="Loading our contacts" />
            </Group>
          )}
          {isError && !site && (
            <Group gap="sm" role="alert">
              <Text c="dimmed">Our email addresses could not be loaded.</Text>
              <Button variant="light" size="compact-sm" onClick={() => void refetch()}>
                Try again
              </Button>
            </Group>
          )}
        </Stack>

        <Stack component="section" gap="md" aria-labelledby="hours-heading">
          <Title order={2} id="hours-heading" fz="h3">
            {site?.contacts.phone ? 'Call us' : 'Opening hours'}
          </Title>
          <OpeningHours phone={site?.contacts.phone} />
        </Stack>

        <Stack component="section" gap="md" aria-labelledby="enquiries-heading">
          <Stack gap={4}>
            <Title order={2} id="enquiries-heading" fz="h3">
              Product enquiries
            </Title>
            <Text>
              Tell us what you would like to know and we will reply by email. Choose the kind of enquiry:
            </Text>
          </Stack>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            {ENQUIRY_TYPES.map((option) => (
              <Button
                key={option}
                variant="light"
                size="md"
                aria-haspopup="dialog"
                disabled={!hydrated}
                onClick={() => openEnquiry(option)}
              >
                {ENQUIRY_TYPE_LABELS[option]} enquiry
              </Button>
            ))}
          </SimpleGrid>
        </Stack>
      </Stack>
      <EnquiryModal
        opened={isEnquiryOpen}
        type={type}
        onClose={enquiry.close}
        supportEmail={site?.contacts.support_email}
      />
    </StaticPage>
  );
}
