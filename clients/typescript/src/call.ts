/**
 * Turns an openapi-fetch answer into its typed body, or throws the API's error. A request refused
 * with `429 RATE_LIMITED` was not processed (the limit is checked before anything else), so it is
 * sent again after the `Retry-After` the service gave, a bounded number of times.
 */
import { errorFrom } from './errors.js';

export interface RetryPolicy {
  /** How many times a RATE_LIMITED request is sent again (0: never). */
  rateLimited: number;
  /** The longest wait before a retry, in seconds; a longer Retry-After is given up on. */
  maxWaitS: number;
}

export const DEFAULT_RETRY: RetryPolicy = { rateLimited: 3, maxWaitS: 60 };

type Answer<T> = { data?: T; error?: unknown; response: Response };

/** Sends the request (`send` is called again for each retry) and answers its body. */
export async function call<T>(send: () => Promise<Answer<T>>, retry: RetryPolicy = DEFAULT_RETRY): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const { data, error, response } = await send();
    if (error === undefined && response.ok) return data as T;
    const waitS = retryAfterS(response, error);
    if (waitS === null || attempt >= retry.rateLimited || waitS > retry.maxWaitS) throw errorFrom(response.status, error);
    await new Promise((resolve) => setTimeout(resolve, waitS * 1000));
  }
}

/** Seconds to wait before sending a RATE_LIMITED request again; null for any other failure. */
function retryAfterS(response: Response, body: unknown): number | null {
  if (response.status !== 429 || (body as { error?: unknown } | undefined)?.error !== 'RATE_LIMITED') return null;
  const seconds = Number(response.headers.get('Retry-After'));
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
}
