import { ADMIN_PAGE_SIZE, type Page } from '@florin/contracts';

/**
 * One page of a list, with the Laravel-style links the contracts share
 * (pagination.ts). `path` is the list's own address; `filters` travel in the links.
 */
export async function readPage<Row, Item>(options: {
  page: number;
  path: string;
  /** The back office's 25 unless the list's contract says otherwise. */
  perPage?: number;
  filters?: Record<string, string | readonly string[] | undefined>;
  count: () => Promise<number>;
  list: (limit: number, offset: number) => Promise<Row[]>;
  toItem: (row: Row) => Item;
}): Promise<Page<Item>> {
  const { page, path } = options;
  const perPage = options.perPage ?? ADMIN_PAGE_SIZE;
  const total = await options.count();
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const rows = await options.list(perPage, (page - 1) * perPage);
  const link = (target: number) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(options.filters ?? {})) {
      const items: readonly (string | undefined)[] =
        typeof value === 'string' || value === undefined ? [value] : value;
      for (const item of items) if (item) search.append(key, item);
    }
    search.set('page', String(target));
    return `${path}?${search.toString()}`;
  };
  return {
    data: rows.map(options.toItem),
    current_page: page,
    last_page: lastPage,
    per_page: perPage,
    total,
    next_page_url: page < lastPage ? link(page + 1) : null,
    prev_page_url: page > 1 ? link(Math.min(page - 1, lastPage)) : null,
  };
}
