import { Link } from 'react-router';
import { registrationText, useCompany } from '../../../lib/company';
import { PATHS } from '../../../lib/paths';
import { TradingFeesFrom } from '../../../components/trading-fees-from';
import { StaticPage } from '../static-page';

export function AboutPage() {
  const company = useCompany();
  return (
    <StaticPage
      title="About us"
      description="Florin is a UK crypto wallet and exchange for buying, selling and storing cryptoassets in pounds sterling, for individuals, traders and businesses."
    >
      <p>
        Florin is a UK crypto wallet and exchange. We make it simple to buy, sell and store cryptoassets with
        pounds sterling, with prices you can read before you commit and your security put first.
      </p>

      <h2>Who we serve</h2>
      <ul>
        <li>
          <strong>Individuals</strong> who want an easy way to buy and hold crypto: an instant account buys
          and sells at a price quoted before you confirm.
        </li>
        <li>
          <strong>Traders</strong>, with a trading account: market and limit orders, positions, auto trade and
          an API, with <TradingFeesFrom />.
        </li>
        <li>
          <strong>Businesses</strong>, with a <Link to={PATHS.cryptoBusiness}>Corporate account</Link> for the
          company&apos;s own funds.
        </li>
      </ul>
      <p>
        We serve residents of the United Kingdom and of the other{' '}
        <Link to={PATHS.jurisdictions}>permitted jurisdictions</Link>.
      </p>

      <h2>How we work</h2>
      <ul>
        <li>
          <strong>Pounds first.</strong> You deposit and withdraw by bank transfer to an account in your own
          name, and trade against GBP.
        </li>
        <li>
          <strong>Fees you can read.</strong> One published <Link to={PATHS.fees}>fee schedule</Link>, taken
          from the same settings our systems charge, and the full cost of every trade shown before you confirm
          it.
        </li>
        <li>
          <strong>Security first.</strong> Two-factor authentication, whitelisted withdrawal addresses, an
          e-mail for every movement of your money, and every crypto withdrawal checked and approved before it
          leaves.
        </li>
        <li>
          <strong>Know your customer.</strong> We verify the identity of everyone who opens an account, as the
          UK money laundering regulations require, and it keeps criminals off the platform.
        </li>
      </ul>

      <h2>The risks</h2>
      <p>
        Cryptoassets are a high-risk investment and you could lose all the money you invest. Our services are
        not regulated by the Financial Conduct Authority, and you should not expect to be protected if
        something goes wrong. Read our <Link to={PATHS.riskSummary}>risk summary</Link> before you invest, and{' '}
        <Link to={PATHS.learnCrypto}>learn how crypto works</Link>.
      </p>

      <h2>The company</h2>
      <p>
        {company && `Florin is run by ${company.name}. ${registrationText(company)} `}To talk to us, see our{' '}
        <Link to={PATHS.contact}>Contact us</Link> page.
      </p>
    </StaticPage>
  );
}
