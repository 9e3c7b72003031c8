import { createTermDeposit, type CreateTermDepositBody } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { BALANCES_QUERY_KEY, HISTORY_QUERY_KEY } from '../../../lib/portfolio';
import { TERM_DEPOSIT_KEYS } from './term-deposit-keys';

/** One key per confirmed deposit: a retry of the same submission cannot lock twice. */
export function newIdempotencyKey(): string {
  return `term-deposit-${crypto.randomUUID()}`;
}

export type CreateTermDepositInput = { idempotencyKey: string; body: CreateTermDepositBody };

/**
 * `POST /api/v1/crypto/term-deposit`; the coins, the history and the balances follow, after a refusal
 * too (a changed rate, a full term or a balance spent in another tab shows at once).
 */
export function useCreateTermDeposit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ idempotencyKey, body }: CreateTermDepositInput) =>
      apiCall(createTermDeposit, { body }, { notify: false, headers: { 'idempotency-key': idempotencyKey } }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: TERM_DEPOSIT_KEYS.all }),
        queryClient.invalidateQueries({ queryKey: BALANCES_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: HISTORY_QUERY_KEY }),
      ]),
  });
}
