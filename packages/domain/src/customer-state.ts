/**
 * users.status (spec 001, User: "status (1 means live)"): a new account is not live until compliance
 * makes it live.
 */
export const CUSTOMER_STATUS = { notLive: 0, live: 1 } as const;

/** users.block_status (spec 001, User: "block_status (2 means on hold)"): compliance holds the account. */
export const BLOCK_STATUS = { none: 0, onHold: 2 } as const;

/**
 * Whether the customer may move money and trade: live and not on hold (spec 001: "Users who are
 * not live (status not 1) or who are blocked (block_status 2) cannot deposit or withdraw").
 */
export function isLive(customer: { status: number; block_status: number }): boolean {
  return customer.status === CUSTOMER_STATUS.live && customer.block_status !== BLOCK_STATUS.onHold;
}
