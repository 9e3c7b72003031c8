import { Link } from 'react-router';
import { PATHS } from '../../../lib/paths';
import { StaticPage } from '../static-page';

/** DECISIONS.md, Routes: a page about Corporate accounts. What it lists is what the KYC wizard asks. */
export function CryptoBusinessPage() {
  return (
    <StaticPage
      title="Crypto for business"
      description="Open a Florin Corporate account to buy, sell and hold cryptoassets with your company's funds: what you need and how we verify your business."
    >
      <p>
        A Florin Corporate account lets your company buy, sell and hold cryptoassets with its own funds, with
        the same prices, fees and security as our personal accounts.
      </p>

      <h2>What a Corporate account offers</h2>
      <ul>
        <li>Buy and sell at a quoted price, or trade with market and limit orders on a trading account.</li>
        <li>
          Deposit and withdraw pounds, euros and dollars by bank transfer to the company&apos;s own account.
        </li>
        <li>Fees that fall as your trading volume grows, and Custom fee plans for large volumes.</li>
        <li>API tokens with limited permissions for your own systems.</li>
        <li>Two-factor authentication, whitelisted addresses and an e-mail for every movement.</li>
      </ul>

      <h2>Who can open one</h2>
      <p>
        A company registered in one of our <Link to={PATHS.jurisdictions}>permitted jurisdictions</Link>,
        opened by a person at least 18 years old who may act for it.
      </p>

      <h2>What you need</h2>
      <h3>About the company</h3>
      <ul>
        <li>Its name, company number and registered address.</li>
        <li>Its certificate of incorporation.</li>
        <li>Its articles of association.</li>
        <li>A proof of its address, such as a recent bank statement or utility bill.</li>
      </ul>
      <h3>About its people</h3>
      <ul>
        <li>
          Every director, and every beneficial owner holding more than 25% of the company: name, date of
          birth, address, phone number and shareholding.
        </li>
        <li>For each of them, an identity document and a proof of address.</li>
        <li>
          For you, opening the account: your own identity document, a photo of you holding it, a proof of
          address, and answers about the source of the funds you will use.
        </li>
      </ul>

      <h2>How we verify your business</h2>
      <p>
        Before a Corporate account goes live we carry out Know Your Business (KYB) checks, as the UK money
        laundering regulations require: we confirm the company exists and is in good standing, find out who
        owns and controls it, and verify the identity of those people. Our compliance team reviews every
        document, and tells you by e-mail if anything is missing or needs replacing.
      </p>

      <h2>How to open an account</h2>
      <ol>
        <li>
          <Link to={PATHS.register}>Register</Link> with your work e-mail address and confirm it.
        </li>
        <li>In the verification steps, choose Corporate as the account type.</li>
        <li>Enter the company&apos;s details, add its directors and owners, and upload the documents.</li>
        <li>
          We review them and tell you by e-mail when the account is live. You can then deposit and start
          trading.
        </li>
      </ol>
      <p>
        Questions first? Our business team is on the <Link to={PATHS.contact}>Contact us</Link> page. Please
        also read our <Link to={PATHS.riskSummary}>risk summary</Link>: cryptoassets are high risk for
        companies too.
      </p>
    </StaticPage>
  );
}
