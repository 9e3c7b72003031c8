/**
 * The reset token is the text after the last `?` of the address (spec 002
 * section 2.12), as the reset e-mail writes it: `/password-reset?<token>`.
 */
export function resetTokenFrom(search: string): string {
  const at = search.lastIndexOf('?');
  return at < 0 ? '' : search.slice(at + 1);
}
