import { AppError, ErrorBodySchema, getAdminDocumentFile } from '@florin/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpointUrl } from '../../../../lib/api-client';
import { reportError } from '../../../../lib/errors';

/** The file's bytes, never parsed as JSON: the one back-office call apiCall cannot make. */
export async function fetchDocumentFile(documentId: number, signal?: AbortSignal): Promise<Blob> {
  const url = endpointUrl(getAdminDocumentFile, { params: { id: documentId } });
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'same-origin', signal, headers: { accept: '*/*' } });
  } catch (error) {
    if (signal?.aborted) throw error;
    const unavailable = new AppError('UNAVAILABLE');
    reportError(unavailable);
    throw unavailable;
  }
  if (!response.ok) {
    const body = ErrorBodySchema.safeParse(await response.json().catch(() => undefined));
    const error = body.success
      ? new AppError(body.data.code, body.data.message, body.data.errors, body.data.data)
      : new AppError(response.status === 404 ? 'NOT_FOUND' : 'INTERNAL');
    reportError(error, { title: 'Document not shown' });
    throw error;
  }
  return response.blob();
}

export function documentFileQuery(documentId: number) {
  return queryOptions({
    queryKey: ['admin', 'compliance', 'document-file', documentId] as const,
    queryFn: ({ signal }) => fetchDocumentFile(documentId, signal),
    // A stored file never changes (a new upload is a new document); no refetch, no retry of a refusal.
    staleTime: Infinity,
    retry: false,
  });
}

export function useDocumentFile(documentId: number) {
  return useQuery(documentFileQuery(documentId));
}
