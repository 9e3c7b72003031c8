/**
 * Bank statements as banks export them, for the statement import tests: an ISO 20022 camt.053.001.02
 * file in the style of a UK bank's (GBP, the payer's account as sort code and account number in one
 * 14-digit "other" id, or as an IBAN).
 */

export type CamtCredit = {
  /** The bank's own reference for the transaction (AcctSvcrRef): the import's transaction id. */
  bankReference: string;
  amount: string;
  payerName: string;
  /** The payer's account: 14 digits (sort code, account number) or an IBAN. */
  payerAccount: { otherId: string } | { iban: string };
  remittance: string;
  /** BOOK unless given (PDNG: not yet booked). */
  status?: 'BOOK' | 'PDNG';
};

export type CamtDebit = { bankReference: string; amount: string; creditorName: string; remittance: string };

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function creditEntry(credit: CamtCredit): string {
  const account =
    'iban' in credit.payerAccount
      ? `<IBAN>${credit.payerAccount.iban}</IBAN>`
      : `<Othr><Id>${credit.payerAccount.otherId}</Id><SchmeNm><Prtry>SortCodeAccountNumber</Prtry></SchmeNm></Othr>`;
  return `
      <Ntry>
        <NtryRef>${escapeXml(credit.bankReference)}</NtryRef>
        <Amt Ccy="GBP">${credit.amount}</Amt>
        <CdtDbtInd>CRDT</CdtDbtInd>
        <Sts>${credit.status ?? 'BOOK'}</Sts>
        <BookgDt><Dt>2026-12-04</Dt></BookgDt>
        <ValDt><Dt>2026-12-04</Dt></ValDt>
        <AcctSvcrRef>${escapeXml(credit.bankReference)}</AcctSvcrRef>
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>DMCT</SubFmlyCd></Fmly></Domn></BkTxCd>
        <NtryDtls>
          <TxDtls>
            <Refs>
              <AcctSvcrRef>${escapeXml(credit.bankReference)}</AcctSvcrRef>
              <EndToEndId>NOTPROVIDED</EndToEndId>
            </Refs>
            <AmtDtls><TxAmt><Amt Ccy="GBP">${credit.amount}</Amt></TxAmt></AmtDtls>
            <RltdPties>
              <Dbtr><Nm>${escapeXml(credit.payerName)}</Nm></Dbtr>
              <DbtrAcct><Id>${account}</Id></DbtrAcct>
            </RltdPties>
            <RmtInf><Ustrd>${escapeXml(credit.remittance)}</Ustrd></RmtInf>
          </TxDtls>
        </NtryDtls>
        <AddtlNtryInf>FASTER PAYMENTS RECEIPT</AddtlNtryInf>
      </Ntry>`;
}

function debitEntry(debit: CamtDebit): string {
  return `
      <Ntry>
        <Amt Ccy="GBP">${debit.amount}</Amt>
        <CdtDbtInd>DBIT</CdtDbtInd>
        <Sts>BOOK</Sts>
        <BookgDt><Dt>2026-12-04</Dt></BookgDt>
        <ValDt><Dt>2026-12-04</Dt></ValDt>
        <AcctSvcrRef>${escapeXml(debit.bankReference)}</AcctSvcrRef>
        <NtryDtls>
          <TxDtls>
            <Refs><AcctSvcrRef>${escapeXml(debit.bankReference)}</AcctSvcrRef></Refs>
            <RltdPties><Cdtr><Nm>${escapeXml(debit.creditorName)}</Nm></Cdtr></RltdPties>
            <RmtInf><Ustrd>${escapeXml(debit.remittance)}</Ustrd></RmtInf>
          </TxDtls>
        </NtryDtls>
      </Ntry>`;
}

/** A day's camt.053.001.02 statement of the house's GBP client account with these entries, in order. */
export function ukCamt053(entries: ({ credit: CamtCredit } | { debit: CamtDebit })[]): string {
  const body = entries
    .map((entry) => ('credit' in entry ? creditEntry(entry.credit) : debitEntry(entry.debit)))
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <BkToCstmrStmt>
    <GrpHdr>
      <MsgId>STMT-20261204-0001</MsgId>
      <CreDtTm>2026-12-05T06:00:00</CreDtTm>
    </GrpHdr>
    <Stmt>
      <Id>40000412345678-20261204</Id>
      <ElctrncSeqNb>338</ElctrncSeqNb>
      <CreDtTm>2026-12-05T06:00:00</CreDtTm>
      <FrToDt><FrDtTm>2026-12-04T00:00:00</FrDtTm><ToDtTm>2026-12-04T23:59:59</ToDtTm></FrToDt>
      <Acct>
        <Id><IBAN>GB29NWBK60161331926819</IBAN></Id>
        <Ccy>GBP</Ccy>
        <Nm>FLORIN CLIENT MONEY</Nm>
        <Svcr><FinInstnId><BIC>NWBKGB2L</BIC></FinInstnId></Svcr>
      </Acct>
      <Bal>
        <Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp>
        <Amt Ccy="GBP">250000.00</Amt>
        <CdtDbtInd>CRDT</CdtDbtInd>
        <Dt><Dt>2026-12-04</Dt></Dt>
      </Bal>${body}
    </Stmt>
  </BkToCstmrStmt>
</Document>
`;
}
