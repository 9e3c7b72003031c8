import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SITE_DESCRIPTION } from './page-meta';

describe('the site description', () => {
  it('is the one index.html is sent with, which PageMeta puts back when a page with its own is left', () => {
    const indexHtml = fs.readFileSync(new URL('../../index.html', import.meta.url), 'utf8');
    expect(indexHtml).toContain(`<meta name="description" content="${SITE_DESCRIPTION}" />`);
  });
});
