import { importBankStatement, type ImportStatementBody } from '@florin/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminCall } from '../../api/admin-client';
import { FIAT_ADMIN_KEYS } from './fiat-admin-keys';

export function importStatement(body: ImportStatementBody) {
  return adminCall(importBankStatement, { body }, { errorTitle: 'Import failed' });
}

export function useImportStatement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importStatement,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: FIAT_ADMIN_KEYS.deposits }),
  });
}
