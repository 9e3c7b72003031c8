import {
  createFirstApiToken,
  generateApiToken,
  type GenerateApiTokenBody,
  type NewApiToken,
} from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API_TOKEN_KEYS } from './get-api-tokens';

/**
 * No body: the first token, READ (POST /api/v1/settings/api-token). A body: another,
 * with its permission and IP allowlist (POST /api/v1/generate-api). The answer holds
 * the token itself, the only time it is ever sent. The tab shows failures itself.
 */
export function generateToken(body?: GenerateApiTokenBody): Promise<NewApiToken> {
  return body
    ? apiCall(generateApiToken, { body }, { notify: false })
    : apiCall(createFirstApiToken, {}, { notify: false });
}

export function useGenerateApiToken(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: generateToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: API_TOKEN_KEYS.list(userId) }),
  });
}
