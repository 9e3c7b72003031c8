import { createContext, use, useEffect } from 'react';

/**
 * Told the page's description while the build draws a page (prerender.tsx),
 * which writes it into the head it sends; absent in the browser.
 */
export const PrerenderedMetaContext = createContext<((description: string) => void) | null>(null);

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
    const original = tag.getAttribute('content');
    tag.setAttribute('content', description);
    return () => {
      if (original !== null) tag.setAttribute('content', original);
    };
  }, [description]);
  return <title>{`${title} · Florin`}</title>;
}
