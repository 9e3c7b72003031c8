import { Link } from 'react-router';
import { PATHS } from '../../../lib/paths';
import { useSiteInfo } from '../../../lib/site-info';

/**
 * "through our Contact us page or by e-mail to …": the address is the
 * configured support one, left out while it is unknown.
 */
export function ContactLine() {
  const email = useSiteInfo().data?.contacts.support_email;
  return (
    <>
      through our <Link to={PATHS.contact}>Contact us</Link> page
      {email ? (
        <>
          {' '}
          or by e-mail to <a href={`mailto:${email}`}>{email}</a>
        </>
      ) : null}
    </>
  );
}
