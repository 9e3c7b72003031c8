import { fiatWithdraw, IDEMPOTENCY_KEY_HEADER, type FiatWithdrawBody } from '@florin/contracts';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { BALANCES_QUERY_KEY, HISTORY_QUERY_KEY } from '../../../lib/portfolio';
import { FIAT_KEYS } from './fiat-keys';

export type WithdrawFiatInput = {
  body: FiatWithdrawBody;
  /** One per submitted form: a retry of the same submission sends the same key, so it cannot pay twice. */
  idempotencyKey: string;
};

/** A fresh Idempotency-Key (the server takes 8–100 of letters, digits and - _ . :). */
export function newIdempotencyKey(): string {
  return `fiat-withdraw-${crypto.randomUUID()}`;
}

export function withdrawFiat({ body, idempotencyKey }: WithdrawFiatInput) {
  return apiCall(
    fiatWithdraw,
    { body },
    { notify: false, headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey } },
  );
}

/** What moving money changes: the balances, the history, the fiat activity and what may be withdrawn. */
export function refreshMoney(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: BALANCES_QUERY_KEY }),
    queryClient.invalidateQueries({ queryKey: HISTORY_QUERY_KEY }),
    queryClient.invalidateQueries({ queryKey: FIAT_KEYS.activityAll }),
    queryClient.invalidateQueries({ queryKey: FIAT_KEYS.withdrawInfoAll }),
  ]);
}

export function useWithdrawFiat() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: withdrawFiat, onSuccess: () => refreshMoney(queryClient) });
}
