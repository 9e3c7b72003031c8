import { Link } from 'react-router';
import { PATHS } from '../../../lib/paths';
import { StaticPage } from '../static-page';
import { ContactLine } from './contact-line';
import { LastUpdated } from './last-updated';

const ICO_COMPLAINTS = 'https://ico.org.uk/make-a-complaint/';

/** The data subject rights of UK GDPR Articles 13 to 22, in plain words. */
const RIGHTS = [
  {
    name: 'The right to be informed',
    text: (
      <>
        You can know what data we collect, why, and for how long. Our{' '}
        <Link to={PATHS.privacy}>Privacy Policy</Link> sets it out.
      </>
    ),
  },
  {
    name: 'The right of access',
    text: 'You can ask for a copy of the personal data we hold about you, and how we use it.',
  },
  {
    name: 'The right to rectification',
    text: 'You can ask us to correct data that is wrong or to complete data that is missing. You can change your phone number and address yourself in your Account.',
  },
  {
    name: 'The right to erasure',
    text: 'You can ask us to delete your data. We will, unless the law requires us to keep it: the money laundering regulations require us to keep records of our identity checks and your transactions for 5 years after our relationship ends.',
  },
  {
    name: 'The right to restrict processing',
    text: 'You can ask us to stop using your data, but keep it, while you question its accuracy or our reasons for using it.',
  },
  {
    name: 'The right to data portability',
    text: 'You can ask for the data you gave us in a structured, machine-readable form, to keep or to pass to another provider.',
  },
  {
    name: 'The right to object',
    text: 'You can object to our using your data on the basis of our legitimate interests, and you can always stop our marketing e-mails: use the unsubscribe link in any of them, or switch them off in your Account.',
  },
  {
    name: 'Rights about automated decisions',
    text: 'You can ask for a person to review a decision about you made only by automated means. Our identity checks are always reviewed by our staff.',
  },
  {
    name: 'The right to withdraw consent',
    text: 'Where we rely on your consent, such as for our newsletter or the referral cookie, you can withdraw it at any time; it does not affect what we did before.',
  },
] as const;

export function GdprPage() {
  return (
    <StaticPage
      title="GDPR"
      description="Your rights over your personal data under the UK GDPR, and how to use them with Florin."
      lead={<LastUpdated />}
    >
      <p>
        The UK General Data Protection Regulation (UK GDPR) gives you rights over the personal data we hold
        about you. This page explains each of them and how to use them with us. How we collect and use your
        data is in our <Link to={PATHS.privacy}>Privacy Policy</Link>.
      </p>

      <h2>Your rights</h2>
      <dl>
        {RIGHTS.map((right) => (
          <div key={right.name}>
            <dt>{right.name}</dt>
            <dd>{right.text}</dd>
          </div>
        ))}
      </dl>

      <h2>How to use your rights</h2>
      <ol>
        <li>
          Contact us <ContactLine />, saying which right you want to use. Write from the e-mail address of
          your Account if you can.
        </li>
        <li>
          We check that the request comes from you before we act on it, so we may ask you for more
          information.
        </li>
        <li>
          We answer within 1 month. If your request is complex, or you make several, we may need up to 2
          months more; if so, we tell you within the first month.
        </li>
        <li>
          It is free. Only for requests that are clearly unfounded or excessive may we charge a reasonable fee
          or refuse, and we will explain why.
        </li>
      </ol>

      <h2>If you are not satisfied</h2>
      <p>
        You can complain to the Information Commissioner&apos;s Office (ICO), the UK&apos;s data protection
        regulator:{' '}
        <a href={ICO_COMPLAINTS} target="_blank" rel="noopener noreferrer">
          ico.org.uk/make-a-complaint
        </a>{' '}
        or 0303 123 1113.
      </p>
    </StaticPage>
  );
}
