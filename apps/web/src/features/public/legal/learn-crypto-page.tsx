import { Link } from 'react-router';
import { PATHS } from '../../../lib/paths';
import { StaticPage } from '../static-page';

/** DECISIONS.md, Routes: how crypto works and its risks, linking the risk summary. */
export function LearnCryptoPage() {
  return (
    <StaticPage
      title="Learn crypto"
      description="How cryptoassets work, from blockchains and wallets to prices and fees, the risks of investing in them, and how to stay safe."
    >
      <p>
        New to crypto? This page explains in plain words how cryptoassets work, what can go wrong, and how to
        keep yourself safe. It is general information, not advice about whether to invest.
      </p>

      <h2>What is a cryptoasset?</h2>
      <p>
        A cryptoasset, or crypto, is a digital asset that exists only as entries in a shared record called a
        blockchain. No government or central bank issues or backs it: its value is whatever buyers and sellers
        agree it is at any moment. Bitcoin (BTC) was the first; others include Ether (ETH), Litecoin (LTC),
        Bitcoin Cash (BCH) and XRP.
      </p>

      <h2>How a blockchain works</h2>
      <p>
        A blockchain is a list of transactions kept by thousands of computers around the world. New
        transactions are grouped into blocks, and each block is linked to the one before it, so a recorded
        transaction cannot be changed or reversed. Each new block added after a transaction is called a
        confirmation; the more confirmations, the more certain it is. This is why a crypto deposit shows as
        pending until it has enough of them.
      </p>

      <h2>Wallets, keys and addresses</h2>
      <ul>
        <li>
          <strong>An address</strong> is where crypto is sent, like an account number. Each coin has its own
          kind of address, and coins sent to the wrong kind of address are usually lost for good.
        </li>
        <li>
          <strong>A private key</strong> is the secret that lets its holder spend what is at an address.
          Whoever has the key controls the coins: nobody can undo a payment made with it.
        </li>
        <li>
          <strong>A wallet</strong> keeps keys. With Florin we keep the keys of your wallet for you; you can
          also withdraw to a wallet of your own.
        </li>
        <li>
          <strong>XRP</strong> uses one shared address with a destination tag, a number that says whose
          deposit it is. Always include the tag we give you.
        </li>
      </ul>

      <h2>Prices and fees</h2>
      <p>
        Crypto prices change every second, every day of the year. When you buy or sell with Florin, we show
        you the price, our fee and the total before you confirm, and that is the price you get. Sending crypto
        out to another wallet has a withdrawal fee. All our fees are on our <Link to={PATHS.fees}>Fees</Link>{' '}
        page; see the latest prices on our <Link to={PATHS.livePrices}>live prices</Link> page.
      </p>

      <h2>The risks</h2>
      <ul>
        <li>
          Prices can fall as fast as they rise, and a cryptoasset can lose all its value: only invest what you
          can afford to lose.
        </li>
        <li>
          Crypto is not protected like money in a bank: the Financial Services Compensation Scheme does not
          cover it, and the Financial Ombudsman Service is unlikely to be able to help.
        </li>
        <li>You may not always be able to sell when you want to, or at the price you expect.</li>
        <li>A payment sent to the wrong address, or to a fraudster, cannot be reversed.</li>
      </ul>
      <p>
        Please read our <Link to={PATHS.riskSummary}>risk summary</Link> before you invest.
      </p>

      <h2>Staying safe</h2>
      <ul>
        <li>
          Turn on two-factor authentication, and never tell anyone your password or a code we send you. Our
          staff will never ask for them.
        </li>
        <li>Whitelist the addresses you withdraw to, and check every address twice before you send.</li>
        <li>
          Be wary of anyone who promises guaranteed returns, pressures you to act quickly, or asks you to send
          crypto to &ldquo;unlock&rdquo; money. If it sounds too good to be true, it probably is.
        </li>
      </ul>

      <h2>Getting started with Florin</h2>
      <ol>
        <li>
          <Link to={PATHS.register}>Create an account</Link> and confirm your e-mail address.
        </li>
        <li>Verify your identity: it takes a few minutes with your passport or driving licence.</li>
        <li>Deposit pounds by bank transfer from an account in your own name.</li>
        <li>Buy, sell and hold crypto, and withdraw whenever you like.</li>
      </ol>
    </StaticPage>
  );
}
