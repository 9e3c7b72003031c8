import {
  AUTO_TRADE_TEXTS,
  cancelAutoTrade,
  createAutoTrade,
  GENERIC_FAILURE_TITLE,
  listAutoTrades,
  type AutoTradeItem,
  type AutoTradeType,
} from '@florin/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { reportError, statusText, toAppError } from '../../../lib/errors';
import { showErrorToast, showSuccessToast } from '../../../lib/toasts';

export function autoTradesQuery(userId: number) {
  return queryOptions({
    queryKey: ['auto-trades', userId] as const,
    queryFn: async ({ signal }): Promise<AutoTradeItem[]> =>
      (await apiCall(listAutoTrades, { params: { id: userId } }, { signal, notify: false })).data,
  });
}

export function useAutoTrades(userId: number) {
  return useQuery(autoTradesQuery(userId));
}

/**
 * Spec 002 §8: a 500 reads "Something went wrong. Please contact support.";
 * anything else the server's message, under the §5 title it sends.
 */
export function reportAutoTradeError(error: unknown): void {
  const appError = toAppError(error);
  if (appError.status >= 500) {
    showErrorToast({
      id: 'auto-trade-failed',
      title: GENERIC_FAILURE_TITLE,
      message: AUTO_TRADE_TEXTS.serverError,
    });
    return;
  }
  const title = typeof appError.data?.title === 'string' ? appError.data.title : statusText(appError.status);
  reportError(appError, { title });
}

export type CreateAutoTradeInput = { userId: number; type: AutoTradeType; coinId: string; passcode: string };

export function useCreateAutoTrade() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, type, coinId, passcode }: CreateAutoTradeInput) =>
      apiCall(
        createAutoTrade,
        { params: { id: userId }, body: { type, coin_id: coinId, passcode } },
        { notify: false },
      ),
    onSuccess: (response, { userId }) => {
      queryClient.setQueryData(autoTradesQuery(userId).queryKey, response.data);
      showSuccessToast({
        id: 'auto-trade-created',
        title: AUTO_TRADE_TEXTS.tableTitle,
        message: response.message,
      });
    },
    onError: reportAutoTradeError,
  });
}

export function useCancelAutoTrade(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (autoTradeId: number) =>
      apiCall(cancelAutoTrade, { params: { id: autoTradeId } }, { notify: false }),
    onSuccess: (response) => {
      showSuccessToast({
        id: 'auto-trade-cancelled',
        title: AUTO_TRADE_TEXTS.tableTitle,
        message: response.message,
      });
    },
    onError: reportAutoTradeError,
    onSettled: () => queryClient.invalidateQueries({ queryKey: autoTradesQuery(userId).queryKey }),
  });
}
