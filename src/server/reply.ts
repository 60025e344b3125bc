/**
 * What a handler answers, typed from the contract: `Reply<'getCpet'>` admits only the bodies
 * openapi/cpet-api.yaml declares for that operation's success responses (through the generated
 * `operations` of src/generated/api.ts), so a handler whose body breaks the contract fails `tsc`.
 * Errors never pass through here: they are thrown as ServiceError and written by errors.ts in the
 * `Error` schema's shape.
 */
import type { operations } from '../generated/api.js';

export type OperationId = keyof operations;

type Responses<Op extends OperationId> = operations[Op]['responses'];

/** The success statuses an operation declares. */
type SuccessStatus<Op extends OperationId> = Extract<keyof Responses<Op>, 200 | 201 | 202 | 204>;

type ContentOf<R> = R extends { content: infer C } ? C : never;

/** A media type as the contract names it, optionally with its parameters (`text/csv; charset=utf-8`). */
type ContentType<M extends string> = M | `${M}; ${string}`;

/** A body written chunk by chunk with back-pressure; `done` learns whether all of it reached the client. */
export interface StreamBody {
  chunks: Iterable<string>;
  done: (delivered: boolean) => Promise<void>;
}

type Common<S> = (S extends 200 ? { status?: 200 } : { status: S }) & {
  /** Extra response headers (e.g. Set-Cookie). */
  headers?: Record<string, string>;
};

/** Media types other than JSON, whose bodies the contract declares as strings. */
type TextTypes<C> = Exclude<keyof C & string, 'application/json'>;

/**
 * The ways to send a success body whose media types are the keys of C: JSON as a value checked
 * against its schema; any other declared type as text or bytes; any declared type as a stream
 * (whose chunks no type can follow: the export's own tests check what they add up to).
 */
type Variants<C, S> =
  | (C extends { 'application/json': infer Body } ? Common<S> & { json: Body } : never)
  | ([TextTypes<C>] extends [never] ? never : Common<S> & { contentType: ContentType<TextTypes<C>>; text: string | Buffer })
  | (Common<S> & { contentType: ContentType<keyof C & string>; stream: StreamBody });

type VariantsAt<Op extends OperationId, S extends SuccessStatus<Op>> = Variants<ContentOf<Responses<Op>[S]>, S>;

/** Every reply the contract allows an operation to send on success. */
export type Reply<Op extends OperationId> = Op extends OperationId ? { [S in SuccessStatus<Op>]: VariantsAt<Op, S> }[SuccessStatus<Op>] : never;

/** Any operation's reply: what the app writes. */
export type AnyReply = Reply<OperationId>;
