import { createContext, use, useEffect } from 'react';

/**
 * Told the page's description while the build draws a page (prerender.tsx),
 * which writes it into the head it sends; absent in the browser.
 */
export const PrerenderedMetaContext = createContext<((description: string) => void) | null>(null);

/** index.html's description (page-meta.test.ts keeps the two the same): the site's, for a page without its own. */
export const SITE_DESCRIPTION = 'Florin: buy, sell and store cryptoassets in pounds sterling.';

/**
 * A public page's title and meta description. React 19 hoists the title into
 * the document head; the description updates index.html's own tag, which
 * crawlers without JavaScript read, rather than adding a second one. A page
 * the build draws is sent with its own description in that tag.
 */
export function PageMeta({ title, description }: { title: string; description: string }) {
  use(PrerenderedMetaContext)?.(description);
  useEffect(() => {
    const tag = document.querySelector('meta[name="description"]');
    if (!tag) return;
    tag.setAttribute('content', description);
    // Not the content found: in a page the build drew, that was this page's own description already.
    return () => tag.setAttribute('content', SITE_DESCRIPTION);
  }, [description]);
  return <title>{`${title} · Florin`}</title>;
}
