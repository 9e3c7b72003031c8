import type { Kysely } from 'kysely';
import { AppError, WHITELIST_TEXTS, type WhitelistedIp } from '@florin/contracts';
import type { DB } from '../../db/schema.js';
import { locateIp } from './ip-location.js';
import { isUniqueViolation, type IpRow, type WhitelistCustomer } from './repository.js';
import {
  isIdText,
  normalizeIp,
  requireCustomer,
  requirePasscode,
  twoFactorRequired,
  type WhitelistServiceDeps,
} from './shared.js';

function toIp(row: IpRow): WhitelistedIp {
  return {
    id: row.id,
    ip_address: row.ip_address,
    city: row.city || null,
    country: row.country || null,
    created_at: row.created_at.toISOString(),
  };
}

/** The IP Whitelisting tab, and the sign-in check of the auth module against it. */
export function createIps(deps: WhitelistServiceDeps) {
  const { db, repository, notifier } = deps;

  /** The IP routes name their owner in the path; anyone else's identification is not found. */
  async function requireOwner(userId: number, identification: string): Promise<WhitelistCustomer> {
    const customer = await requireCustomer(deps, userId);
    if (customer.user_identification !== identification) throw new AppError('NOT_FOUND');
    return customer;
  }

  return {
    async listIps(
      userId: number,
      identification: string,
      limit: number,
      currentIp: string,
    ): Promise<{ data: WhitelistedIp[]; total: number; current_ip: string }> {
      await requireOwner(userId, identification);
      const { rows, total } = await repository.listIps(userId, limit);
      // Rows saved before locations were looked up are located once, as they are first read.
      const located = await Promise.all(
        rows.map(async (row) => {
          if (row.city !== null || row.country !== null) return row;
          const location = await locateIp(row.ip_address);
          await repository.saveIpLocation(row.id, location);
          return { ...row, ...location };
        }),
      );
      return { data: located.map(toIp), total, current_ip: normalizeIp(currentIp) };
    },

    async addIp(
      userId: number,
      identification: string,
      body: { ip_address: string; passcode: string; city?: string | null; country?: string | null },
      currentIp: string,
    ): Promise<{ data: WhitelistedIp; message: string }> {
      const customer = await requireOwner(userId, identification);
      if (!customer.has_totp) throw twoFactorRequired();
      const ip = normalizeIp(body.ip_address);
      const current = normalizeIp(currentIp);
      // A first entry other than the address in use would lock the customer out at their next sign-in.
      const checkRules = async (executor: Kysely<DB>) => {
        if (ip !== current && (await repository.countLiveIps(userId, executor)) === 0)
          throw new AppError('VALIDATION_FAILED', WHITELIST_TEXTS.ipFirstMustBeCurrent, {
            ip_address: [WHITELIST_TEXTS.ipFirstMustBeCurrent],
          });
        if (await repository.findLiveIpByAddress(userId, ip, executor))
          throw new AppError('CONFLICT', WHITELIST_TEXTS.ipExists);
      };
      await checkRules(db);
      await requirePasscode(deps, userId, body.passcode);
      // Our own lookup, not the page's city and country: a customer's browser cannot know better, nor be trusted to.
      const location = await locateIp(ip);
      const { row, mail } = await db.transaction().execute(async (trx) => {
        await repository.lockCustomer(trx, userId);
        await checkRules(trx);
        let inserted: IpRow;
        try {
          inserted = await repository.insertIp(trx, { user_id: userId, ip_address: ip, ...location });
        } catch (error) {
          if (isUniqueViolation(error, 'whitelisted_ips_once'))
            throw new AppError('CONFLICT', WHITELIST_TEXTS.ipExists);
          throw error;
        }
        const queued = await notifier.queue(trx, customer, 'ip_whitelisted', {
          firstName: customer.first_name,
          ip,
        });
        return { row: inserted, mail: queued };
      });
      await notifier.deliver(mail);
      return { data: toIp(row), message: WHITELIST_TEXTS.ipAdded };
    },

    async removeIp(
      userId: number,
      identification: string,
      id: string,
      passcode: string,
      currentIp: string,
    ): Promise<{ message: string }> {
      const customer = await requireOwner(userId, identification);
      const row = isIdText(id) ? await repository.findLiveIp(userId, id) : undefined;
      if (!row) throw new AppError('NOT_FOUND');
      if (!customer.has_totp) throw twoFactorRequired();
      // As when adding the first: removing the address in use while others stay would lock the customer
      // out at their next sign-in from here (removing the last one lets every address in again).
      if (row.ip_address === normalizeIp(currentIp) && (await repository.countLiveIps(userId, db)) > 1)
        throw new AppError('VALIDATION_FAILED', WHITELIST_TEXTS.ipRemoveCurrent);
      await requirePasscode(deps, userId, passcode);
      const mail = await db.transaction().execute(async (trx) => {
        if (!(await repository.removeIp(userId, row.id, trx))) throw new AppError('NOT_FOUND');
        return notifier.queue(trx, customer, 'ip_whitelist_removed', {
          firstName: customer.first_name,
          ip: row.ip_address,
        });
      });
      await notifier.deliver(mail);
      return { message: WHITELIST_TEXTS.ipRemoved };
    },

    /** For sign-in: true when the customer whitelists no IPs, or `ip` is one of them. */
    async isSignInIpAllowed(userId: number, ip: string): Promise<boolean> {
      const allowed = await repository.listLiveIpAddresses(userId);
      return allowed.length === 0 || allowed.includes(normalizeIp(ip));
    },
  };
}
