import { IDEMPOTENCY_KEY_HEADER, sendVerifyWithdraw, type CryptoWithdrawRequest } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { refreshCryptoMoney } from './crypto-keys';

export type SendVerifyWithdrawInput = {
  body: CryptoWithdrawRequest;
  /** One per submitted form: a retry of the same submission holds the coins once. */
  idempotencyKey: string;
};

/** A fresh Idempotency-Key (the server takes 8–100 of letters, digits and - _ . :). */
export function newCryptoIdempotencyKey(): string {
  return `crypto-withdraw-${crypto.randomUUID()}`;
}

/** Checks the withdrawal, holds the coins and e-mails a code for it. The form reports failures. */
export function sendVerify({ body, idempotencyKey }: SendVerifyWithdrawInput) {
  return apiCall(
    sendVerifyWithdraw,
    { body },
    { notify: false, headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey } },
  );
}

export function useSendVerifyWithdraw() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: sendVerify, onSuccess: () => refreshCryptoMoney(queryClient) });
}
