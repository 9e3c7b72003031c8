import { ResetTokenSchema } from '@florin/contracts';

/**
 * The reset token is the text after the last `?` of the address (spec 002
 * section 2.12), as the reset e-mail writes it: `/password-reset?<token>`.
 */
export function resetTokenFrom(search: string): string {
  const at = search.lastIndexOf('?');
  return at < 0 ? '' : search.slice(at + 1);
}

/**
 * Whether the token has the shape the contract takes: a link cut short by a
 * mail client cannot work, so the page says so before anything is typed.
 */
export function isResetTokenWellFormed(token: string): boolean {
  return ResetTokenSchema.safeParse(token).success;
}
