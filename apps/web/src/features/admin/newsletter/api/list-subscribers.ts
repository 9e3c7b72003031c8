import {
  exportNewsletterSubscribers,
  listNewsletterSubscribers,
  NEWSLETTER_PAGE_SIZE,
} from '@florin/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';

export type SubscriberSearch = { skip: number; q: string };

export function newsletterSubscribersQuery({ skip, q }: SubscriberSearch) {
  return queryOptions({
    queryKey: ['admin', 'newsletter', skip, q] as const,
    queryFn: ({ signal }) =>
      adminCall(
        listNewsletterSubscribers,
        { query: { skip, take: NEWSLETTER_PAGE_SIZE, ...(q ? { q } : {}) } },
        { signal },
      ),
  });
}

export function useNewsletterSubscribers(search: SubscriberSearch) {
  return useQuery({ ...newsletterSubscribersQuery(search), placeholderData: keepPreviousData });
}

/** A plain link: the browser downloads the file with the staff cookie, as the payout file does. */
export const NEWSLETTER_EXPORT_URL = exportNewsletterSubscribers.path;
