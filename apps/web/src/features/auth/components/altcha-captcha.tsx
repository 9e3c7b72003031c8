import 'altcha';
import 'altcha/types/react';
import { getCaptchaChallenge } from '@florin/contracts';
import { Box } from '@mantine/core';
import type { WidgetMethods } from 'altcha/types';
import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';

export type CaptchaHandle = {
  /** Back to unsolved: a payload is good for one sign-in attempt only. */
  reset: () => void;
};

type AltchaCaptchaProps = {
  /** The payload to send as `altcha` once solved; null while unsolved, solving or expired. */
  onChange: (payload: string | null) => void;
  ref?: Ref<CaptchaHandle>;
};

type StateChange = CustomEvent<{ state: string; payload: string | null }>;

/** Hidden: it links to the vendor's site, and it is our own server that checks the proof of work. */
const CONFIGURATION = JSON.stringify({ hideFooter: true });

/**
 * The self-hosted ALTCHA proof of work (`<altcha-widget>`). It starts solving
 * when the form gets focus, so it is usually done by the time the password is
 * typed; the checkbox also starts it.
 */
export function AltchaCaptcha({ onChange, ref }: AltchaCaptchaProps) {
  const widget = useRef<HTMLElement & WidgetMethods>(null);
  const latestOnChange = useRef(onChange);

  useEffect(() => {
    latestOnChange.current = onChange;
  }, [onChange]);

  useEffect(() => {
    const element = widget.current;
    if (!element) return undefined;
    const handleStateChange = (event: Event) => {
      const { state, payload } = (event as StateChange).detail;
      latestOnChange.current(state === 'verified' && payload ? payload : null);
    };
    element.addEventListener('statechange', handleStateChange);
    return () => element.removeEventListener('statechange', handleStateChange);
  }, []);

  useImperativeHandle(ref, () => ({ reset: () => widget.current?.reset() }), []);

  return (
    <Box miw={0}>
      <altcha-widget
        ref={widget}
        challenge={getCaptchaChallenge.path}
        auto="onfocus"
        configuration={CONFIGURATION}
        style={{ '--altcha-max-width': '100%', '--altcha-border-radius': 'var(--mantine-radius-md)' }}
      />
    </Box>
  );
}
