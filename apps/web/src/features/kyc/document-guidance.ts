import type { DocumentKey } from '@florin/contracts';

/** What each document must show: under its upload zone in the wizard and in the Rejected view. */
export const DOCUMENT_GUIDANCE: Record<DocumentKey, string> = {
  passport: 'The photo page of your passport, with all four corners visible.',
  national_id_front: 'The front of your national ID card or biometric residence permit.',
  id_front: 'The front of your driver licence.',
  id_back: 'The back of your driver licence.',
  proof_selfie:
    'A photo of you holding your ID and a sheet of paper with today\'s date and the word "Florin"; your whole face and the document visible.',
  proof_address:
    'A bank or credit card statement, internet or TV licence bill, utility bill or council tax bill issued within the last 3 months.',
  coi: 'The certificate of incorporation of the company.',
  aoa: 'The articles of association of the company.',
  cproof_address:
    "A document showing the company's registered address (a bank statement or utility bill) issued within the last 3 months.",
};
