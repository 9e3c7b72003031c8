import { useEffect } from 'react';

/**
 * A public page's title and meta description. React 19 hoists the title into
 * the document head; the description updates index.html's own tag, which
 * crawlers without JavaScript read, rather than adding a second one.
 */
export function PageMeta({ title, description }: { title: string; description: string }) {
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
