import { KYC_TEXTS, type UserDetailsBody } from '@florin/contracts';
import {
  addressOf,
  isHandedIn,
  lockUser,
  refuseLockedChanges,
  requireAccountType,
  rescreen,
  type KycServiceDeps,
} from './shared.js';

/** The customer's address, contact and tax details. */
export function createDetails(deps: Pick<KycServiceDeps, 'db' | 'repository' | 'sanctions'>) {
  const { db, repository } = deps;

  return {
    /**
     * The address, contact and tax details (Individual step 3). Once the wizard
     * is finished (staff check the ID against them) or the account is live, phone,
     * address and tax details may change but not date of birth or nationality; a
     * new address makes the current proof of address superseded, so a new one is
     * uploaded and reviewed.
     */
    async saveDetails(userId: number, body: UserDetailsBody): Promise<void> {
      const user = await db.transaction().execute(async (trx) => {
        const user = await lockUser(repository, trx, userId);
        requireAccountType(user);
        if (isHandedIn(user)) {
          refuseLockedChanges(KYC_TEXTS.birthdateLocked, {
            birthdate: user.birthdate !== null && user.birthdate !== body.birthdate,
            nationality: user.nationality !== null && user.nationality !== body.nationality,
          });
        }
        const isNewAddress = user.details_submitted_at !== null && addressOf(user) !== addressOf(body);
        await repository.updateUser(
          userId,
          {
            country: body.country,
            address: body.address,
            city: body.city,
            zip: body.zip,
            phone: body.phone,
            birthdate: body.birthdate,
            nationality: body.nationality,
            tax_residence: body.tax_residence,
            tax_id: body.tax_id,
            details_submitted_at: user.details_submitted_at ?? new Date(),
          },
          trx,
        );
        if (isNewAddress) await repository.supersedeDocuments(userId, null, ['proof_address'], trx);
        return user;
      });
      // The date of birth is screened (the address is not: the list is matched by name and birth).
      if (user.birthdate !== body.birthdate) await rescreen(deps, user, 'details_changed');
    },
  };
}
