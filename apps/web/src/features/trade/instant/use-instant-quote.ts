import { QUOTE_SECONDS, TRADING_TEXTS, type Quote, type QuoteRequest } from '@florin/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { showErrorToast, showSuccessToast } from '../../../lib/toasts';
import { useCreateQuote } from '../api/create-quote';
import { useExecuteQuote } from '../api/place-instant-order';
import { tradeSummary } from './instant-amounts';

export function showExceedingToast(): void {
  showErrorToast({
    id: 'instant-exceeding-balance',
    title: TRADING_TEXTS.insufficientFundsTitle,
    message: TRADING_TEXTS.exceedingBalance,
  });
}

/**
 * The instant order's preview: a server quote good for QUOTE_SECONDS, renewed
 * while the preview stays open, and executed by id. `onExecuted` runs once a
 * quote has been executed, before the success toast.
 */
export function useInstantQuote({ onExecuted }: { onExecuted: () => void }) {
  const [quote, setQuote] = useState<Quote | null>(null);
  const [secondsLeft, setSecondsLeft] = useState(QUOTE_SECONDS);
  // What the open preview quotes, so each renewal asks for the same order; null once it closes.
  const previewRequest = useRef<QuoteRequest | null>(null);
  const createQuote = useCreateQuote();
  const execute = useExecuteQuote();
  // TanStack Query keeps `mutate` the same function for the mutation's life, so the countdown below
  // restarts on its own inputs only.
  const { mutate: mutateQuote } = createQuote;

  const closePreview = useCallback(() => {
    previewRequest.current = null;
    setQuote(null);
  }, []);

  const requestQuote = useCallback(() => {
    const request = previewRequest.current;
    if (!request) return;
    mutateQuote(request, {
      onSuccess: (next: Quote) => {
        // Closed while the quote was on its way: nothing to show.
        if (previewRequest.current === null) return;
        if (next.exceeds_balance) {
          closePreview();
          showExceedingToast();
          return;
        }
        setQuote(next);
        setSecondsLeft(QUOTE_SECONDS);
      },
      onError: closePreview,
    });
  }, [mutateQuote, closePreview]);

  // The countdown: one second at a time while the preview is open and nothing is in flight; at zero, a new quote.
  const isRequoting = createQuote.isPending;
  const isExecuting = execute.isPending;
  useEffect(() => {
    if (quote === null || isRequoting || isExecuting) return;
    if (secondsLeft <= 0) {
      requestQuote();
      return;
    }
    const timer = setTimeout(() => setSecondsLeft((seconds) => seconds - 1), 1_000);
    return () => clearTimeout(timer);
  }, [quote, secondsLeft, isRequoting, isExecuting, requestQuote]);

  const openPreview = (request: QuoteRequest) => {
    previewRequest.current = request;
    requestQuote();
  };

  const executeQuote = () => {
    if (!quote) return;
    execute.mutate(quote, {
      onSuccess: (answer) => {
        closePreview();
        onExecuted();
        showSuccessToast({
          id: 'instant-order',
          title: TRADING_TEXTS.transactionSuccessful,
          message: tradeSummary(answer.data),
        });
      },
      onError: closePreview,
    });
  };

  return { quote, secondsLeft, isRequoting, isExecuting, openPreview, executeQuote, closePreview };
}
