import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One HTTP call: the server registers it, the web client calls it, both with
 * the same schemas. `responses` names the success body per status.
 */
export type Endpoint = {
  method: HttpMethod;
  path: string;
  summary: string;
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  /** The body is a multipart form the handler reads itself (uploads); every other route refuses one. */
  multipart?: true;
  responses: Record<number, z.ZodType>;
};

export function defineEndpoint<const E extends Endpoint>(endpoint: E): E {
  return endpoint;
}
