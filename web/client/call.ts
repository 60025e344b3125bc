/** Turns an openapi-fetch answer into its typed body, or throws the API's error. */
import { errorFrom } from './errors.js';

export async function call<T>(request: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await request;
  if (error !== undefined || !response.ok) throw errorFrom(response.status, error);
  return data as T;
}
