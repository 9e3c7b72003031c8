import { Accordion, Paper, Tabs, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState, type ReactNode } from 'react';
import classes from './responsive-tabs.module.css';

/** One tab; one not yet available shows, disabled, with a hint. */
export type ResponsiveTabEntry<T extends string> = { value: T; label: string; isAvailable: boolean };

type ResponsiveTabsProps<T extends string> = {
  entries: readonly ResponsiveTabEntry<T>[];
  value: T;
  /** Called with an available tab only. */
  onChange: (value: T) => void;
  renderPanel: (value: T) => ReactNode;
  unavailableHint?: string;
};

/** Spec 001 section 2 and 002 section 2.2: the tabs become an accordion at 768 px and below. */
const ACCORDION_QUERY = '(max-width: 48em)';
const TOOLTIP_EVENTS = { hover: true, focus: true, touch: true };

/**
 * The signed-in pages' tabs (Settings, Account): tabs on wide screens, an
 * accordion on narrow ones, where the open item may also be closed.
 */
export function ResponsiveTabs<T extends string>({
  entries,
  value,
  onChange,
  renderPanel,
  unavailableHint = 'Available soon',
}: ResponsiveTabsProps<T>) {
  const isAccordion = useMediaQuery(ACCORDION_QUERY, undefined, { getInitialValueInEffect: false });
  const [isAccordionCollapsed, setIsAccordionCollapsed] = useState(false);

  const select = (next: string | null) => {
    const entry = entries.find((candidate) => candidate.value === next);
    if (!entry?.isAvailable) return;
    setIsAccordionCollapsed(false);
    onChange(entry.value);
  };

  if (isAccordion) {
    return (
      <Accordion
        variant="separated"
        classNames={{ item: classes.accordionItem }}
        value={isAccordionCollapsed ? null : value}
        onChange={(next) => (next === null ? setIsAccordionCollapsed(true) : select(next))}
      >
        {entries.map((entry) => (
          <Accordion.Item key={entry.value} value={entry.value}>
            {entry.isAvailable ? (
              <Accordion.Control>{entry.label}</Accordion.Control>
            ) : (
              <Tooltip label={unavailableHint} events={TOOLTIP_EVENTS}>
                <Accordion.Control aria-disabled mod={{ disabled: true }}>
                  {entry.label}
                </Accordion.Control>
              </Tooltip>
            )}
            <Accordion.Panel>
              {!isAccordionCollapsed && value === entry.value && renderPanel(entry.value)}
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    );
  }

  return (
    <Tabs value={value} onChange={select} keepMounted={false}>
      <Tabs.List mb="lg">
        {entries.map((entry) =>
          entry.isAvailable ? (
            <Tabs.Tab key={entry.value} value={entry.value}>
              {entry.label}
            </Tabs.Tab>
          ) : (
            <Tooltip key={entry.value} label={unavailableHint} events={TOOLTIP_EVENTS}>
              <Tabs.Tab value={entry.value} aria-disabled mod={{ disabled: true }}>
                {entry.label}
              </Tabs.Tab>
            </Tooltip>
          ),
        )}
      </Tabs.List>
      {entries
        .filter((entry) => entry.isAvailable)
        .map((entry) => (
          <Tabs.Panel key={entry.value} value={entry.value}>
            <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }}>
              {renderPanel(entry.value)}
            </Paper>
          </Tabs.Panel>
        ))}
    </Tabs>
  );
}
