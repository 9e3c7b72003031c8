import { CloseButton, Group, Paper, Progress, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useMotd } from '../api/get-motd';
import { MOTD_DURATION_MS, remainingPercent } from '../motd';
import classes from './motd-toast.module.css';

const TICK_MS = 100;

/**
 * The message's toast: it counts down 60 seconds with a progress bar, and
 * the count stops while the pointer is over it or focus is inside it, so a
 * reader is never cut off. Timed with the page's clock (performance.now), so
 * a throttled background tab still ends on time.
 */
function MotdToast({ message, onClose }: { message: string; onClose: () => void }) {
  const [remainingMs, setRemainingMs] = useState(MOTD_DURATION_MS);
  const isHovered = useRef(false);
  const hasFocus = useRef(false);

  useEffect(() => {
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      const elapsed = now - last;
      last = now;
      if (isHovered.current || hasFocus.current) return;
      setRemainingMs((remaining) => Math.max(0, remaining - elapsed));
    }, TICK_MS);
    return () => clearInterval(timer);
  }, []);

  const latestOnClose = useRef(onClose);
  useEffect(() => {
    latestOnClose.current = onClose;
  });
  useEffect(() => {
    if (remainingMs <= 0) latestOnClose.current();
  }, [remainingMs]);

  return (
    <Paper
      className={classes.toast}
      shadow="lg"
      radius="md"
      withBorder
      role="status"
      aria-label="Message of the day"
      onMouseEnter={() => (isHovered.current = true)}
      onMouseLeave={() => (isHovered.current = false)}
      onFocus={() => (hasFocus.current = true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) hasFocus.current = false;
      }}
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs" p="sm" pb="xs">
        <Text size="sm" className={classes.message}>
          {message}
        </Text>
        <CloseButton size="sm" aria-label="Close message" onClick={onClose} />
      </Group>
      <Progress
        value={remainingPercent(remainingMs)}
        size="xs"
        radius={0}
        transitionDuration={0}
        aria-label="Time left"
      />
    </Paper>
  );
}

/**
 * The message of the day on the signed-in shell (spec 000 section 2): a
 * top-right toast, once per session (get-motd.ts), until it runs out or is closed.
 */
export function MessageOfTheDay() {
  const { data: motd } = useMotd();
  const [closedId, setClosedId] = useState<string | null>(null);
  if (!motd || motd.id === closedId) return null;
  return <MotdToast key={motd.id} message={motd.message} onClose={() => setClosedId(motd.id)} />;
}
