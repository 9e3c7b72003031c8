import { Link } from 'react-router';
import { COMPANY_PLACEHOLDER_NAME, registrationText, useCompany } from '../../../lib/company';
import { PATHS } from '../../../lib/paths';
import { StaticPage } from '../static-page';
import { LastUpdated } from './last-updated';

/**
 * The terms of service, from spec 002 §1's summary and §9's limits. DECISIONS.md:
 * sending assets to a person by e-mail is not built, so the terms say nothing
 * of the spec's 30-day invitation.
 */
export function TermsPage() {
  const company = useCompany();
  return (
    <StaticPage
      title="Terms of Service"
      description="The terms on which Florin Ltd provides its crypto wallet and exchange: who may use it, how instructions, refunds and fees work, and how an account ends."
      lead={<LastUpdated />}
    >
      <h2>1. About these terms</h2>
      <p>
        These terms are an agreement between you and {company?.name ?? COMPANY_PLACEHOLDER_NAME}{' '}
        (&ldquo;Florin&rdquo;, &ldquo;we&rdquo;, &ldquo;us&rdquo;).{' '}
        {company && `${registrationText(company)} `}They apply whenever you use your Account, our website or
        our API. Please read them together with our <Link to={PATHS.privacy}>Privacy Policy</Link>, our{' '}
        <Link to={PATHS.cookies}>Cookie Policy</Link> and our <Link to={PATHS.fees}>Fees</Link> page. By
        opening an Account you accept these terms.
      </p>

      <h2>2. Definitions</h2>
      <p>In these terms these words have the following meanings:</p>
      <dl>
        <dt>Funds</dt>
        <dd>Banknotes and coins, money held in a bank account, and E-Money.</dd>
        <dt>Legal Tender</dt>
        <dd>
          Money that a government has declared lawful for paying debts in its country, such as pounds sterling
          (GBP) in the United Kingdom or the euro (EUR) in the euro area. Digital Assets are not Legal Tender.
        </dd>
        <dt>Account</dt>
        <dd>
          The account you open with us to use our services, protected by your sign-in details, which holds
          your E-Wallet.
        </dd>
        <dt>Digital Asset</dt>
        <dd>
          A cryptoasset that we support, such as bitcoin: a digital representation of value that is recorded
          on a distributed ledger (a blockchain) and is not issued or backed by any government or central
          bank.
        </dd>
        <dt>E-Wallet</dt>
        <dd>The part of your Account that records the E-Money and the Digital Assets we hold for you.</dd>
        <dt>E-Money</dt>
        <dd>
          The electronic value, in pounds sterling or another Legal Tender we support, that we record in your
          E-Wallet when we receive Funds from you, and that you can use to buy Digital Assets or withdraw to
          your bank account.
        </dd>
        <dt>E-Currency Transaction</dt>
        <dd>
          Any purchase, sale, deposit, withdrawal or transfer of Digital Assets made through your Account. It
          is unconfirmed or pending until the blockchain confirms it, then complete. Pending amounts are not
          part of your balance, and a transfer cannot be reversed once it has been broadcast to the
          blockchain.
        </dd>
        <dt>Business day</dt>
        <dd>Monday to Friday, except bank holidays in England.</dd>
      </dl>

      <h2>3. Who can use Florin</h2>
      <p>To open and keep an Account you must:</p>
      <ul>
        <li>be at least 18 years old;</li>
        <li>
          live in, or for a company be registered in, one of our{' '}
          <Link to={PATHS.jurisdictions}>permitted jurisdictions</Link>, and not use our services from a
          restricted location, meaning anywhere that is not one of them;
        </li>
        <li>
          complete our identity verification, and give us any further information or documents we ask for,
          before you deposit, trade or withdraw; and
        </li>
        <li>give us true, complete and up-to-date information, and hold one Account only.</li>
      </ul>
      <p>
        A company opens a Corporate account; the person opening it confirms they may act for the company, and
        we verify the company and its directors and beneficial owners as well.
      </p>

      <h2>4. Keeping your Account safe</h2>
      <p>
        Keep your password, two-factor authentication device, recovery codes and API tokens secret and secure,
        and never share a code we send you. Tell us at once through our{' '}
        <Link to={PATHS.contact}>Contact us</Link> page if you think someone else knows them or has used your
        Account.
      </p>

      <h2>5. Your instructions</h2>
      <ul>
        <li>
          An instruction we receive after 4:45 pm GMT on a business day, or on a day that is not a business
          day, counts as received on the next business day.
        </li>
        <li>
          A purchase instruction cannot be withdrawn once you have confirmed it. Before you confirm, we show
          you the price, the fee and the total.
        </li>
        <li>
          We may refuse an instruction where we must by law, where we reasonably suspect fraud or financial
          crime, or where your Account does not hold enough Funds or Digital Assets. Unless the law prevents
          it, we will tell you why.
        </li>
      </ul>

      <h2>6. Fees</h2>
      <p>
        Our fees for deposits, withdrawals and trades are set out on our <Link to={PATHS.fees}>Fees</Link>{' '}
        page, which shows the figures our systems charge. Every trade shows its fee before you confirm it.
      </p>

      <h2>7. Unauthorised or incorrect transactions</h2>
      <ul>
        <li>
          If a transaction on your Account was not authorised by you, or was carried out incorrectly, you must
          tell us without undue delay, and in any case within 1 month of the date of the transaction.
        </li>
        <li>
          Where we are responsible, we will refund the transaction, and put your Account back as it would have
          been, within 3 business days of your report, unless we have reasonable grounds to suspect fraud, in
          which case we will tell you and investigate first.
        </li>
        <li>
          You bear the first £250 of losses from transactions made with lost or stolen sign-in details. You
          bear all losses if you acted fraudulently, or deliberately or with gross negligence failed to keep
          your sign-in details safe.
        </li>
      </ul>

      <h2>8. Risks and protection</h2>
      <p>
        The value of Digital Assets can rise or fall sharply, and you could lose all the money you invest.
        Please read our <Link to={PATHS.riskSummary}>risk summary</Link> before you invest.
      </p>
      <p>
        Our services are not regulated by the financial regulator, the Financial Conduct Authority, and the
        E-Money in your E-Wallet is not covered by the compensation scheme, the Financial Services
        Compensation Scheme. You should not expect to be protected if something goes wrong.
      </p>

      <h2>9. Refusing, suspending and ending an Account</h2>
      <ul>
        <li>
          We may refuse to open an Account, and we may suspend or terminate your Account, if we must by law,
          if we reasonably suspect fraud, financial crime or misuse, or if you break these terms.
        </li>
        <li>We may also terminate your Account for any other reason by giving you 1 month&apos;s notice.</li>
        <li>
          You may close your Account at any time from Account Details once nothing is left in it or held for
          an open order, withdrawal or term deposit; a closed Account is marked Terminated.
        </li>
        <li>
          After your Account is terminated you have 60 days to move your assets out: during that time you can
          withdraw your E-Money to your bank account and your Digital Assets to your own wallet, but you
          cannot buy or sell.
        </li>
      </ul>

      <h2>10. Changes to these terms</h2>
      <p>
        We may change these terms. We will tell you by e-mail at least 1 month before a change takes effect,
        unless the law requires it sooner. If you do not agree to a change you can close your Account before
        it takes effect, free of charge.
      </p>

      <h2>11. Complaints and the law</h2>
      <p>
        If you are unhappy with our service, please tell us through our{' '}
        <Link to={PATHS.contact}>Contact us</Link> page and we will look into it. These terms are governed by
        the law of England and Wales, and the courts of England and Wales may hear any dispute about them.
      </p>
    </StaticPage>
  );
}
