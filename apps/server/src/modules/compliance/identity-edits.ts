import { AppError, COMPLIANCE_TEXTS, type CustomerProfile, type EditIdentityBody } from '@florin/contracts';
import type { AuditActor } from '../audit/service.js';
import {
  changeCustomer,
  profileOf,
  requireCustomer,
  type Answer,
  type CustomerAdminDeps,
} from './customer-admin-shared.js';

/** The customer's name and date of birth, changed by staff and screened again. */
export function createIdentityEdits(deps: CustomerAdminDeps) {
  const { repository, notifier } = deps;
  return {
    /** DECISIONS.md: name and date of birth change only through staff, at the customer's request. */
    async editIdentity(
      actor: AuditActor,
      userId: number,
      input: EditIdentityBody,
    ): Promise<Answer<CustomerProfile>> {
      await changeCustomer(deps, actor, userId, async (customer, trx) => {
        const values: { first_name?: string; last_name?: string; birthdate?: string } = {};
        if (input.first_name !== undefined && input.first_name !== customer.first_name) {
          values.first_name = input.first_name;
        }
        if (input.last_name !== undefined && input.last_name !== customer.last_name) {
          values.last_name = input.last_name;
        }
        if (input.birthdate !== undefined && input.birthdate !== customer.birthdate) {
          values.birthdate = input.birthdate;
        }
        const fields = Object.keys(values) as (keyof typeof values)[];
        if (fields.length === 0) throw new AppError('CONFLICT', COMPLIANCE_TEXTS.detailsUnchanged);
        await repository.updateCustomer(trx, userId, values);
        const changes = [
          values.first_name !== undefined || values.last_name !== undefined ? 'name' : null,
          values.birthdate !== undefined ? 'date of birth' : null,
        ].filter((item): item is string => item !== null);
        return {
          action: 'user.identity_edited',
          before: Object.fromEntries(fields.map((field) => [field, customer[field]])),
          after: { ...values, reason: input.reason },
          // The old name greets them: it is who they were when they asked.
          mail: await notifier.queue(trx, customer, 'identity_details_changed', {
            firstName: customer.first_name,
            changes: changes.join(' and '),
          }),
        };
      });
      // A match puts the account on hold: the profile shows it as it is after the screening.
      await deps.sanctions.screenCustomer(userId, 'identity_edited');
      return {
        data: await profileOf(deps, await requireCustomer(deps, userId)),
        message: COMPLIANCE_TEXTS.detailsUpdated,
      };
    },
  };
}
