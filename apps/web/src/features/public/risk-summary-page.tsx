import { Anchor, List, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PATHS } from '../../lib/paths';
import { StaticPage } from './static-page';

const FCA_INVEST_SMART = 'https://www.fca.org.uk/investsmart';
const FCA_CRYPTOASSETS = 'https://www.fca.org.uk/consumers/cryptoassets';
const FSCS_CHECKER = 'https://www.fscs.org.uk/check/investment-protection-checker/';
const FOS_CONSUMERS = 'https://www.financial-ombudsman.org.uk/consumers';

function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Anchor href={href} target="_blank" rel="noopener noreferrer" inherit underline="always">
      {children}
    </Anchor>
  );
}

type Risk = { title: string; points: ReactNode[] };

/** The headings are the FCA's; the explanations are ours, written for cryptoassets. */
const RISKS: Risk[] = [
  {
    title: 'You could lose all the money you invest',
    points: [
      'Cryptoasset prices can move very sharply, and fall as quickly as they rise. Their value could drop to nothing, so only invest money you can afford to lose completely.',
      'Cryptoassets are largely unregulated. You could lose money or the cryptoassets you buy through events such as hacks and cyber-attacks, fraud and financial crime, or the failure of a firm that holds them.',
    ],
  },
  {
    title: 'You should not expect to be protected if something goes wrong',
    points: [
      <>
        The Financial Services Compensation Scheme (FSCS) does not cover this type of investment: cryptoassets
        are not a &lsquo;specified investment&rsquo; under UK rules, so you cannot claim compensation if a
        firm holding them fails. You can check what is covered with the{' '}
        <ExternalLink href={FSCS_CHECKER}>FSCS investment protection checker</ExternalLink>.
      </>,
      <>
        The Financial Ombudsman Service (FOS) is unlikely to be able to consider a complaint about this type
        of investment. <ExternalLink href={FOS_CONSUMERS}>Learn more about FOS protection</ExternalLink>.
      </>,
    ],
  },
  {
    title: 'You may not be able to sell your investment when you want to',
    points: [
      'Nobody guarantees that you can sell a cryptoasset at a given moment. Whether you can depends on how many people want to buy and sell it at the time.',
      'Technical problems, such as outages or cyber-attacks, and failings at the firms involved could delay a sale, and you may not be able to sell when you want to or at the price you expect.',
    ],
  },
  {
    title: 'Cryptoasset investments can be complex',
    points: [
      'Cryptoassets can be hard to understand, which makes their risks hard to judge.',
      'Do your own research before you invest. If an offer sounds too good to be true, it probably is.',
    ],
  },
  {
    title: "Don't put all your eggs in one basket",
    points: [
      'Putting all your money into one type of investment is risky. Spreading it across different investments means you depend less on any single one doing well.',
      'A good rule of thumb is to invest no more than 10% of your money in high-risk investments.',
    ],
  },
];

export function RiskSummaryPage() {
  return (
    <StaticPage
      title="Risk summary"
      description="The key risks of investing in cryptoassets: what you could lose, the protection you do not have, and where to learn more."
      lead={
        <Text c="dimmed" size="sm">
          Estimated reading time: 2 min
        </Text>
      }
      isProse={false}
    >
      <Paper withBorder p="md" bg="yellow.0" radius="md">
        <Text fw={600}>
          Due to the potential for losses, the Financial Conduct Authority (FCA) considers this investment to
          be high risk.
        </Text>
      </Paper>

      <Title order={2}>What are the key risks?</Title>

      {RISKS.map((risk, index) => (
        <Stack component="section" key={risk.title} gap="xs">
          <Title order={3} fz="lg">
            {`${index + 1}. ${risk.title}`}
          </Title>
          <List spacing="xs" size="md">
            {risk.points.map((point, pointIndex) => (
              <List.Item key={pointIndex}>{point}</List.Item>
            ))}
          </List>
        </Stack>
      ))}

      <Text>
        If you are interested in learning more about how to protect yourself,{' '}
        <ExternalLink href={FCA_INVEST_SMART}>visit the FCA&apos;s website</ExternalLink>.
      </Text>
      <Text>
        For more about cryptoassets themselves, read the{' '}
        <ExternalLink href={FCA_CRYPTOASSETS}>FCA&apos;s guide to cryptoassets</ExternalLink>.
      </Text>

      <Anchor component={Link} to={PATHS.home} size="sm">
        Back to home
      </Anchor>
    </StaticPage>
  );
}
