import { NEWSLETTER_TEXTS } from '@florin/contracts';
import { useEffect, useRef } from 'react';
import { useParams } from 'react-router';
import { describeError, toAppError } from '../../../lib/errors';
import { useConfirmNewsletterSubscription } from './api/confirm-newsletter';
import { NewsletterOutcome } from './newsletter-outcome';

/**
 * `/newsletter/confirm/<token>`, the link in the confirmation e-mail: confirms
 * on arrival (the page's script posts it, so a mail scanner fetching the link
 * confirms nothing), then says how it went.
 */
export function NewsletterConfirmPage() {
  const { token = '' } = useParams();
  const { mutate, isSuccess, isError, error, data } = useConfirmNewsletterSubscription();
  // A link works once: the effect must not send it twice (React runs effects twice in development).
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    mutate(token);
  }, [mutate, token]);

  if (isSuccess)
    return (
      <NewsletterOutcome tone="success" title={NEWSLETTER_TEXTS.confirmedTitle}>
        {data.message}
      </NewsletterOutcome>
    );
  if (isError)
    return (
      <NewsletterOutcome tone="error" title={NEWSLETTER_TEXTS.confirmFailedTitle}>
        {describeError(toAppError(error))}
      </NewsletterOutcome>
    );
  return <NewsletterOutcome tone="waiting" title={NEWSLETTER_TEXTS.confirming} />;
}
