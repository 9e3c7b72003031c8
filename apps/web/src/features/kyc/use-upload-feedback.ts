import { KYC_TEXTS, type ErrorCode } from '@florin/contracts';
import { useState } from 'react';
import { describeError, toAppError } from '../../lib/errors';
import { showErrorToast } from '../../lib/toasts';

/**
 * Refusals the customer can act on (another file, or waiting out the upload limit): the reason shows
 * under the zone, rather than the dialog offering the compliance mailbox.
 */
const FILE_REFUSALS: ReadonlySet<ErrorCode> = new Set([
  'UNSUPPORTED_FILE',
  'FILE_TOO_LARGE',
  'PAYLOAD_TOO_LARGE',
  'VALIDATION_FAILED',
  'RATE_LIMITED',
]);

export type UploadFeedback = {
  progress: number | null;
  problem: string | null;
  setProblem: (problem: string | null) => void;
  /** The compliance-mailbox dialog is open (account documents only). */
  isFailureDialogOpen: boolean;
  closeFailureDialog: () => void;
  /** Runs an upload with progress; its answer, or undefined when it failed (and the failure was shown). */
  run: <T>(upload: (onProgress: (percent: number) => void) => Promise<T>) => Promise<T | undefined>;
};

/**
 * Progress and failure handling for one upload zone. A file the server refuses shows its
 * reason under the zone. Any other failure: for the customer's own documents the dialog with
 * the compliance mailbox (spec 000 section 8), for a director's "File upload fail.".
 */
export function useUploadFeedback(kind: 'account' | 'director'): UploadFeedback {
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [isFailureDialogOpen, setIsFailureDialogOpen] = useState(false);

  const run: UploadFeedback['run'] = async <T>(
    upload: (onProgress: (percent: number) => void) => Promise<T>,
  ) => {
    setProblem(null);
    setProgress(0);
    try {
      return await upload(setProgress);
    } catch (error) {
      const appError = toAppError(error);
      if (appError.code === 'UNAUTHENTICATED') return undefined;
      if (FILE_REFUSALS.has(appError.code)) setProblem(describeError(appError));
      else if (kind === 'account') setIsFailureDialogOpen(true);
      else showErrorToast({ title: 'Upload failed', message: KYC_TEXTS.directorFileFailed });
      return undefined;
    } finally {
      setProgress(null);
    }
  };

  return {
    progress,
    problem,
    setProblem,
    isFailureDialogOpen,
    closeFailureDialog: () => setIsFailureDialogOpen(false),
    run,
  };
}
