/**
 * The three upload routes (multipart, JSON content, signed ticket) and ticket minting. Each ends in
 * `ingest`; the ticket post also proves the ticket is genuine, unexpired and unused, before its body
 * is read.
 */
import type { Request } from 'express';
import { ServiceError } from '../../errors.js';
import type { components } from '../../generated/api.js';
import { mintTicket, TICKET_TTL_MS, verifyTicket, type TicketPayload } from '../../store/tickets.js';
import type { ApiKeyRecord } from '../../store/keys.js';
import type { ServiceDeps } from '../deps.js';
import type { Reply } from '../reply.js';
import { validationError } from '../errors.js';
import { checkRetainHours, ingest } from './ingest.js';

type ContentUpload = components['schemas']['ContentUploadRequest'];
type TicketRequest = components['schemas']['TicketRequest'];
type TicketResponse = components['schemas']['TicketResponse'];

const TICKET_SECRET_NAME = 'upload-tickets';
/** Tickets one POST /v1/uploads may mint (spec 8). */
export const MAX_TICKETS_PER_REQUEST = 200;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** POST /v1/cpet: the multipart form's `file` field. */
export async function uploadMultipart(deps: ServiceDeps, key: ApiKeyRecord, req: Request): Promise<Reply<'uploadCpetMultipart'>> {
  const file = req.file;
  if (!file) throw validationError([{ loc: ['body', 'file'], msg: 'field "file" with the unchanged export is required', type: 'missing' }]);
  const body = (req.body ?? {}) as Record<string, unknown>;
  return { json: await ingest(deps, key.id, file.originalname || 'upload', file.buffer, body.retain_hours as number | undefined) };
}

/** POST /v1/cpet/content: text in `content` or bytes in `content_base64`, exactly one. */
export async function uploadContent(deps: ServiceDeps, key: ApiKeyRecord, body: ContentUpload): Promise<Reply<'uploadCpetContent'>> {
  const hasText = typeof body.content === 'string';
  const hasBase64 = typeof body.content_base64 === 'string';
  if (hasText === hasBase64) {
    throw validationError([
      {
        loc: ['body', hasText ? 'content_base64' : 'content'],
        msg: hasText ? 'give content or content_base64, not both' : 'one of content (text files) or content_base64 (xls, xlsx) is required',
        type: hasText ? 'exclusive' : 'missing',
      },
    ]);
  }
  let bytes: Buffer;
  if (hasText) bytes = Buffer.from(body.content as string, 'utf8');
  else {
    const b64 = (body.content_base64 as string).replace(/\s+/g, '');
    if (!BASE64.test(b64) || b64.length % 4 === 1) throw validationError([{ loc: ['body', 'content_base64'], msg: 'is not valid base64', type: 'base64' }]);
    bytes = Buffer.from(b64, 'base64');
  }
  return { json: await ingest(deps, key.id, body.filename, bytes, body.retain_hours) };
}

/** POST /v1/uploads: `count` signed one-shot URLs bound to this key, each valid for 5 minutes. */
export async function createTickets(deps: ServiceDeps, key: ApiKeyRecord, body: TicketRequest, req: Request): Promise<Reply<'createUploadTickets'>> {
  const retainHours = body.retain_hours === null || body.retain_hours === undefined ? null : checkRetainHours(body.retain_hours);
  const count = body.count ?? 1;
  let secret: Buffer;
  try {
    secret = await deps.store.sharedSecret(TICKET_SECRET_NAME);
  } catch (err) {
    throw new ServiceError('UPLOAD_TICKETS_UNAVAILABLE', `Upload tickets cannot be issued right now (${(err as Error).message}); use POST /v1/cpet instead.`, { alternative: 'POST /v1/cpet' });
  }
  const base = deps.config.publicBaseUrl ?? `${req.protocol}://${req.get('host')}`;
  const filename = body.filename ?? null;
  const now = deps.config.now();
  const tickets = Array.from({ length: count }, () => {
    const { token, payload } = mintTicket({ kid: key.id, rh: retainHours, fn: filename }, secret, now, TICKET_TTL_MS);
    const url = `${base}/v1/uploads/${token}`;
    return {
      ticket_id: payload.tid,
      upload_url: url,
      expires_at: new Date(payload.exp).toISOString(),
      curl: `curl -sS -X POST -F "file=@${filename ?? 'your-export.xlsx'}" '${url}'`,
    };
  });
  const first = tickets[0];
  const response: TicketResponse = {
    count,
    expires_in_s: TICKET_TTL_MS / 1000,
    retain_hours: retainHours ?? checkRetainHours(null),
    filename,
    upload_url: first.upload_url,
    expires_at: first.expires_at,
    curl: first.curl,
    tickets,
  };
  return { json: response };
}

/** Failed posts one ticket takes (a wrong file, say) before the next failure uses it up. */
export const MAX_FAILED_TICKET_POSTS = 3;

/** A ticket checked before its post's body is read: genuine, unexpired, unused, its key alive. */
export interface AdmittedTicket {
  payload: TicketPayload;
  key: ApiKeyRecord;
}

function ticketInvalid(reason: string): ServiceError {
  return new ServiceError('UPLOAD_TICKET_INVALID', `This upload URL cannot be used: it is ${reason}. Mint a new one with POST /v1/uploads.`, { reason });
}

/** Checks the ticket of POST /v1/uploads/{ticket} from its path alone, so a bad ticket's body is never read. */
export async function admitTicket(deps: ServiceDeps, token: string): Promise<AdmittedTicket> {
  let secret: Buffer;
  try {
    secret = await deps.store.sharedSecret(TICKET_SECRET_NAME);
  } catch (err) {
    // A store that does not answer is worth a retry (503); a secret that cannot be made is not.
    if (err instanceof ServiceError && err.code === 'SERVICE_UNAVAILABLE') throw err;
    throw ticketInvalid('not verifiable right now');
  }
  const verdict = verifyTicket(token, secret, deps.config.now());
  if (!verdict.ok) throw ticketInvalid(verdict.reason);
  const { payload } = verdict;
  const key = await deps.store.keys.get(payload.kid);
  if (!key || key.revoked_at) throw ticketInvalid('bound to a key that no longer exists');
  if (key.expires_at && Date.parse(key.expires_at) <= deps.config.now()) throw ticketInvalid('bound to a key that has expired');
  if (await deps.store.isClaimed(claimOf(payload))) throw ticketInvalid('already used');
  return { payload, key };
}

function claimOf(payload: TicketPayload): string {
  return `ticket:${payload.tid}`;
}

/**
 * POST /v1/uploads/{ticket}: no key; the ticket is the credential, good for one stored file. The
 * ticket is claimed while its file is read, so of concurrent posts exactly one proceeds; a post the
 * reader refuses (4xx) gives the claim back, so the acquisition PC can retry with the right file,
 * until MAX_FAILED_TICKET_POSTS failures use the ticket up.
 */
export async function postTicket(deps: ServiceDeps, ticket: AdmittedTicket, req: Request): Promise<Reply<'postTicketUpload'>> {
  const { payload, key } = ticket;
  const file = fileFromRequest(req, payload.fn);
  const claim = claimOf(payload);
  const ttl = Math.max(1000, payload.exp - deps.config.now() + 60_000);
  if (!(await deps.store.consumeOnce(claim, ttl))) throw ticketInvalid('already used');
  try {
    return { json: await ingest(deps, key.id, file.filename, file.bytes, payload.rh) };
  } catch (err) {
    await giveBack(deps, claim, `ticket-failures:${payload.tid}`, ttl, err);
    throw err;
  }
}

async function giveBack(deps: ServiceDeps, claim: string, failures: string, ttlMs: number, err: unknown): Promise<void> {
  try {
    const refusedFile = err instanceof ServiceError && err.status < 500;
    const count = refusedFile ? await deps.store.incrementCounter(failures, 1, ttlMs) : 0;
    if (count < MAX_FAILED_TICKET_POSTS) await deps.store.releaseClaim(claim);
  } catch {
    // The store failing here leaves the ticket claimed (used up); the caller still gets the first error.
  }
}

function fileFromRequest(req: Request, ticketFilename: string | null): { filename: string; bytes: Uint8Array } {
  if (req.file) return { filename: req.file.originalname || ticketFilename || 'upload', bytes: req.file.buffer };
  if (Buffer.isBuffer(req.body) && req.body.length > 0) {
    const header = req.get('x-filename');
    return { filename: header || ticketFilename || 'upload', bytes: req.body };
  }
  throw validationError([{ loc: ['body', 'file'], msg: 'send the file as multipart field "file" or as an application/octet-stream body', type: 'missing' }]);
}
