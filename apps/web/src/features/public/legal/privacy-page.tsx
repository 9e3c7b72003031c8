import { Link } from 'react-router';
import { COMPANY_PLACEHOLDER_NAME, registrationText, useCompany } from '../../../lib/company';
import { PATHS } from '../../../lib/paths';
import { ScrollableTable, StaticPage } from '../static-page';
import { ContactLine } from './contact-line';
import { LastUpdated } from './last-updated';

const ICO_COMPLAINTS = 'https://ico.org.uk/make-a-complaint/';

/** Why we use personal data and the UK GDPR lawful basis for each (Article 6). */
const PURPOSES = [
  {
    purpose: 'Opening and running your Account: deposits, trades, withdrawals, statements and support',
    basis: 'Contract: we need the data to provide the service you asked for',
  },
  {
    purpose:
      'Checking your identity, and for a company its directors and owners; screening against sanctions and fraud lists; reporting suspicious activity',
    basis: 'Legal obligation: the UK money laundering regulations require it',
  },
  {
    purpose: 'Keeping records of our checks and of your transactions',
    basis: 'Legal obligation',
  },
  {
    purpose:
      'Keeping your Account and our systems secure: sign-in alerts, IP and address whitelists, fraud prevention',
    basis: 'Legitimate interests: protecting you and us from fraud and misuse',
  },
  {
    purpose: 'Improving our service and answering enquiries',
    basis: 'Legitimate interests',
  },
  {
    purpose: 'Sending you our newsletter and marketing e-mails; remembering a referral code in a cookie',
    basis: 'Consent, which you can withdraw at any time',
  },
] as const;

export function PrivacyPage() {
  const company = useCompany();
  return (
    <StaticPage
      title="Privacy Policy"
      description="How Florin Ltd collects, uses, keeps and protects your personal data under the UK GDPR, and the rights you have over it."
      lead={<LastUpdated />}
    >
      <h2>Who we are</h2>
      <p>
        {company?.name ?? COMPANY_PLACEHOLDER_NAME} is the controller of the personal data described here,
        under the UK General Data Protection Regulation (UK GDPR) and the Data Protection Act 2018.{' '}
        {company && `${registrationText(company)} `}You can reach us about your data <ContactLine />.
      </p>

      <h2>The data we collect</h2>
      <ul>
        <li>
          <strong>Identity:</strong> your name, date of birth, nationality and, for a company, its name,
          number, registered address and the details of its directors and beneficial owners.
        </li>
        <li>
          <strong>Identity documents:</strong> copies of your passport, national identity card or driving
          licence, a photo of you holding it, and a proof of address; for a company, its certificate of
          incorporation, articles of association and proof of address.
        </li>
        <li>
          <strong>Contact:</strong> your e-mail address, phone number and home address.
        </li>
        <li>
          <strong>Financial:</strong> your bank account details, your answers about your income, wealth and
          experience, your balances and transactions, and the wallet addresses you send to and receive from.
        </li>
        <li>
          <strong>Technical:</strong> your IP address, browser and device, and when you sign in and out.
        </li>
        <li>
          <strong>Communications:</strong> what you write to us, and the e-mails we send you.
        </li>
      </ul>
      <p>
        Most of it comes from you. We also get data from identity verification and fraud prevention services,
        from banks about payments you make to us, and from public blockchains.
      </p>

      <h2>Why we use it and our lawful basis</h2>
      <ScrollableTable label="Purposes and lawful bases">
        <table>
          <thead>
            <tr>
              <th scope="col">What we use it for</th>
              <th scope="col">Lawful basis</th>
            </tr>
          </thead>
          <tbody>
            {PURPOSES.map((row) => (
              <tr key={row.purpose}>
                <td>{row.purpose}</td>
                <td>{row.basis}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollableTable>

      <h2>Who we share it with</h2>
      <p>We never sell your data. We share it only where we need to, with:</p>
      <ul>
        <li>identity verification, sanctions screening and fraud prevention services;</li>
        <li>our banks and payment providers, to move your money;</li>
        <li>the companies that host our systems and send our e-mails, under contracts that protect it;</li>
        <li>
          the police, tax authorities, regulators and courts, where the law requires us to, for example in a
          report of suspected money laundering.
        </li>
      </ul>
      <p>
        When you send or receive Digital Assets, the addresses and amounts are recorded on a public
        blockchain, where anyone can see them and nobody can remove them.
      </p>
      <p>
        If your data goes outside the UK, we make sure it is protected as UK law requires: to a country the UK
        recognises as adequate, or under the UK&apos;s approved contract terms.
      </p>

      <h2>How long we keep it</h2>
      <p>
        We keep the records of our identity checks and of your transactions for 5 years after our relationship
        ends, as the money laundering regulations require, and then delete them. We keep your newsletter
        subscription until you unsubscribe.
      </p>

      <h2>Your rights</h2>
      <p>
        You have the right to be told about, see, correct and delete your data, to restrict or object to how
        we use it, to take it with you, to withdraw your consent, and not to be subject to decisions made only
        by automated means. Our <Link to={PATHS.gdpr}>GDPR</Link> page explains each right and how to use it.
      </p>

      <h2>Children</h2>
      <p>
        Our services are for people aged 18 and over. Children under 14 cannot consent to the processing of
        their personal data, and we do not knowingly collect data about children.
      </p>

      <h2>Cookies</h2>
      <p>
        Our <Link to={PATHS.cookies}>Cookie Policy</Link> lists the cookies we set, and nothing that is not
        essential is set before you agree.
      </p>

      <h2>Complaints</h2>
      <p>
        If you are unhappy with how we have handled your data, please tell us first <ContactLine />. You also
        have the right to complain to the Information Commissioner&apos;s Office (ICO), the UK&apos;s data
        protection regulator:{' '}
        <a href={ICO_COMPLAINTS} target="_blank" rel="noopener noreferrer">
          ico.org.uk/make-a-complaint
        </a>{' '}
        or 0303 123 1113.
      </p>

      <h2>Changes to this policy</h2>
      <p>
        We review this policy at least every 2 years, and whenever we change how we use your data. The date at
        the top shows when it last changed.
      </p>
    </StaticPage>
  );
}
