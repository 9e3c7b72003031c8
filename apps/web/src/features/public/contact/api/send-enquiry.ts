import { sendEnquiry, type EnquiryBody, type EnquiryType } from '@florin/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../../lib/api-client';

export type EnquiryRequest = { type: EnquiryType; body: EnquiryBody };

/** The enquiry dialog shows the outcome itself, success or failure (enquiry-modal.tsx). */
export function sendProductEnquiry({ type, body }: EnquiryRequest): Promise<{ message: string }> {
  return apiCall(sendEnquiry, { params: { type }, body }, { notify: false });
}

export function useSendEnquiry() {
  return useMutation({ mutationFn: sendProductEnquiry });
}
