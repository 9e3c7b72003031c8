import { z } from 'zod';

/** The Laravel-style page the spec's lists use (history, orders, term deposits). */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    current_page: z.number().int().min(1),
    last_page: z.number().int().min(1),
    per_page: z.number().int().min(1),
    total: z.number().int().min(0),
    next_page_url: z.string().nullable(),
    prev_page_url: z.string().nullable(),
  });
}

export type Page<T> = {
  data: T[];
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
  next_page_url: string | null;
  prev_page_url: string | null;
};

export const PageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
