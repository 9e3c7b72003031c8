import { getCaptchaChallenge } from '@florin/contracts';
import { Box, Text } from '@mantine/core';
import { State, type WidgetMethods } from 'altcha/types';
import { useEffect, useImperativeHandle, useRef, useState, useSyncExternalStore, type Ref } from 'react';

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

/** The widget's height once drawn: its place is kept while its script loads, so the form does not move. */
const WIDGET_HEIGHT = 53;

const ELEMENT_NAME = 'altcha-widget';

const subscribeToDefinition = (onDefined: () => void) => {
  void customElements.whenDefined(ELEMENT_NAME).then(onDefined);
  return () => undefined;
};

/** Whether the widget's script has defined its element: false in a prerendered page and until the script runs. */
function useWidgetDefined(): boolean {
  return useSyncExternalStore(
    subscribeToDefinition,
    () => customElements.get(ELEMENT_NAME) !== undefined,
    () => false,
  );
}

/**
 * The self-hosted ALTCHA proof of work (`<altcha-widget>`). It starts solving
 * when the form gets focus, so it is usually done by the time the password is
 * typed; the checkbox also starts it. Its script (33 KB) is loaded once the
 * form is drawn, so it does not hold the form up: a prerendered login page
 * (prerender.tsx) holds the empty element, which the script upgrades in place.
 */
export function AltchaCaptcha({ onChange, ref }: AltchaCaptchaProps) {
  const widget = useRef<HTMLElement & WidgetMethods>(null);
  const latestOnChange = useRef(onChange);
  const defined = useWidgetDefined();
  const [loadError, setLoadError] = useState<Error | null>(null);

  useEffect(() => {
    let unmounted = false;
    import('altcha').then(
      () => {
        // A visitor quicker than the script is already in the form: the focus the widget waits for has passed.
        const element = widget.current;
        if (unmounted || !element?.closest('form')?.contains(document.activeElement)) return;
        // The widget shows its own error (and a retry) if solving fails.
        if (element.getState() === State.UNVERIFIED) element.verify().catch(() => undefined);
      },
      (error: Error) => setLoadError(error),
    );
    return () => {
      unmounted = true;
    };
  }, []);

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

  // Thrown to the route's error boundary, which offers a reload (the usual cause: a deploy renamed the chunk).
  if (loadError) throw loadError;
  return (
    <Box miw={0} mih={WIDGET_HEIGHT}>
      {/* Words, not a spinner: an animation on a prerendered page keeps a slow phone's CPU busy while it hydrates. */}
      {!defined && (
        <Text role="status" size="sm" c="dimmed" lh={`${WIDGET_HEIGHT}px`}>
          Loading the security check…
        </Text>
      )}
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
