import { NEWSLETTER_TEXTS } from '@florin/contracts';
import { Button, Text } from '@mantine/core';
import { useParams } from 'react-router';
import { describeError, toAppError } from '../../../lib/errors';
import { useUnsubscribeFromNewsletter } from './api/unsubscribe-newsletter';
import { NewsletterOutcome } from './newsletter-outcome';

/**
 * `/newsletter/unsubscribe/<token>`, the link in every newsletter mail. One
 * button press, not on arrival: mail scanners that open links (and run their
 * scripts) must not unsubscribe anyone.
 */
export function NewsletterUnsubscribePage() {
  const { token = '' } = useParams();
  const unsubscribe = useUnsubscribeFromNewsletter();

  if (unsubscribe.isSuccess)
    return (
      <NewsletterOutcome tone="success" title={NEWSLETTER_TEXTS.unsubscribedTitle}>
        {unsubscribe.data.message}
      </NewsletterOutcome>
    );
  if (unsubscribe.isError)
    return (
      <NewsletterOutcome tone="error" title={NEWSLETTER_TEXTS.unsubscribeTitle}>
        {describeError(toAppError(unsubscribe.error))}
      </NewsletterOutcome>
    );
  return (
    <NewsletterOutcome tone="question" title={NEWSLETTER_TEXTS.unsubscribeTitle}>
      <Text>{NEWSLETTER_TEXTS.unsubscribeIntro}</Text>
      <Button loading={unsubscribe.isPending} onClick={() => unsubscribe.mutate(token)}>
        {NEWSLETTER_TEXTS.unsubscribe}
      </Button>
    </NewsletterOutcome>
  );
}
