import { ADMIN_PAGE_SIZE, type Page } from '@florin/contracts';

/**
 * One page of a list, with the Laravel-style links the contracts share
 * (pagination.ts). `path` is the list's own address; `filters` travel in the links.
 */
export async function readPage<Row, Item>(options: {
  page: number;
  path: string;
  filters?: Record<string, string | undefined>;
  count: () => Promise<number>;
  list: (limit: number, offset: number) => Promise<Row[]>;
  toItem: (row: Row) => Item;
}): Promise<Page<Item>> {
  const { page, path } = options;
  const total = await options.count();
  const lastPage = Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE));
  const rows = await options.list(ADMIN_PAGE_SIZE, (page - 1) * ADMIN_PAGE_SIZE);
  const link = (target: number) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(options.filters ?? {})) if (value) search.set(key, value);
    search.set('page', String(target));
    return `${path}?${search.toString()}`;
  };
  return {
    data: rows.map(options.toItem),
    current_page: page,
    last_page: lastPage,
    per_page: ADMIN_PAGE_SIZE,
    total,
    next_page_url: page < lastPage ? link(page + 1) : null,
    prev_page_url: page > 1 ? link(Math.min(page - 1, lastPage)) : null,
  };
}
