import { countryName, PERMITTED_JURISDICTIONS } from '@florin/domain';
import { Link } from 'react-router';
import { PATHS } from '../../../lib/paths';
import { StaticPage } from '../static-page';

/** Spec 002 §9's groups, from the list the KYC checks enforce (packages/domain, countries.ts). */
const GROUPS = [
  { id: 'primary', label: 'United Kingdom (primary)', codes: PERMITTED_JURISDICTIONS.primary },
  { id: 'eea', label: 'EEA members', codes: PERMITTED_JURISDICTIONS.eea },
  { id: 'non-eu', label: 'Non-EU', codes: PERMITTED_JURISDICTIONS.nonEu },
] as const;

export function LocationsPage() {
  return (
    <StaticPage
      title="Permitted jurisdictions"
      description="The countries and territories where Florin offers its services: the United Kingdom, the EEA members listed and selected others."
    >
      <p>
        We offer our services to people who live in, and companies registered in, the jurisdictions below. We
        check your country of residence, or your company&apos;s country, when we verify your identity, and we
        cannot open an account anywhere else.
      </p>
      <table>
        <caption>Where we offer our services, by group.</caption>
        <thead>
          <tr>
            <th scope="col">Jurisdiction</th>
            <th scope="col">Group</th>
          </tr>
        </thead>
        {GROUPS.map((group) => (
          <tbody key={group.id} data-testid={`jurisdictions-${group.id}`}>
            {group.codes.map((code) => (
              <tr key={code}>
                <th scope="row">{countryName(code)}</th>
                <td>{group.label}</td>
              </tr>
            ))}
          </tbody>
        ))}
      </table>
      <p>
        Your nationality does not matter: what counts is where you live. If you move to a country that is not
        listed, please tell us, as we may have to close your account under our{' '}
        <Link to={PATHS.terms}>Terms of Service</Link>.
      </p>
    </StaticPage>
  );
}
