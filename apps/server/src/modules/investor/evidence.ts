import { AppError, investorEvidenceFilename, type InvestorEvidence } from '@florin/contracts';
import { recordAudit, type AuditActor } from '../audit/service.js';
import { journeyOf, type InvestorServiceDeps } from './shared.js';

/** The back office's evidence record of the journey, read or exported as one file. */
export function createEvidence(deps: InvestorServiceDeps) {
  const { db, repository } = deps;
  const now = () => deps.clock.now();

  /** The back office's evidence record of one customer; an unknown customer is a 404. */
  async function evidenceOf(userId: number): Promise<InvestorEvidence> {
    const customer = await repository.findCustomer(userId);
    if (!customer) throw new AppError('NOT_FOUND');
    const events = await repository.listEvidence(userId);
    return {
      customer: {
        id: customer.id,
        reference: customer.user_identification,
        name: `${customer.first_name} ${customer.last_name}`,
        account_type: customer.account_type,
      },
      journey: await journeyOf(deps, db, customer),
      events: events.map((event) => ({
        id: Number(event.id),
        step: event.step,
        details: event.details,
        ip: event.ip,
        created_at: event.created_at.toISOString(),
      })),
    };
  }

  return {
    async evidence(userId: number): Promise<{ data: InvestorEvidence }> {
      return { data: await evidenceOf(userId) };
    },

    /** The record as one file; each export is audited, since it carries the customer's personal data. */
    async exportEvidence(userId: number, actor: AuditActor): Promise<{ filename: string; json: string }> {
      const data = await evidenceOf(userId);
      await recordAudit(db, {
        ...actor,
        action: 'investor_evidence.exported',
        targetType: 'user',
        targetId: userId,
        after: { events: data.events.length },
      });
      return {
        filename: investorEvidenceFilename(data.customer.reference),
        json: JSON.stringify({ exported_at: now().toISOString(), ...data }, null, 2),
      };
    },
  };
}
