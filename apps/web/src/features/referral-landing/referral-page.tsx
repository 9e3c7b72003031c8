import { lookupReferral } from '@florin/contracts';
import { useQuery } from '@tanstack/react-query';
import { Navigate, useParams } from 'react-router';
import { NotFoundPage } from '../../components/not-found-page';
import { PageLoader } from '../../components/page-loader';
import { apiCall } from '../../lib/api-client';

/**
 * `/:id` (spec 002 §2.9): a partner's custom slug or a referral code. A loader,
 * then the registration form with the code filled in (the register page reads
 * `ref`), or 404 Not Found when the lookup finds nothing.
 */
export function ReferralPage() {
  const { id = '' } = useParams();
  const lookup = useQuery({
    queryKey: ['referral-lookup', id],
    queryFn: async () => (await apiCall(lookupReferral, { params: { id } }, { notify: false })).data,
    retry: false,
  });
  if (lookup.isPending) return <PageLoader />;
  if (lookup.isError) return <NotFoundPage />;
  return <Navigate to={`/register?ref=${encodeURIComponent(lookup.data.code)}`} replace />;
}
