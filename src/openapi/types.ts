/**
 * The subset of the OpenAPI 3.1 object model that the service reads from its own document
 * (openapi/cpet-api.yaml). Only what the loader, the public copy and the text descriptions touch is
 * typed; everything else passes through as unknown.
 */

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** A JSON Schema 2020-12 object as OpenAPI 3.1 uses it. */
export interface SchemaObject {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  additionalProperties?: boolean | SchemaObject;
  items?: SchemaObject;
  oneOf?: SchemaObject[];
  anyOf?: SchemaObject[];
  allOf?: SchemaObject[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  pattern?: string;
  [extension: string]: unknown;
}

export interface ParameterObject {
  $ref?: string;
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: SchemaObject;
  [extension: string]: unknown;
}

export interface MediaTypeObject {
  schema?: SchemaObject;
  example?: unknown;
  examples?: Record<string, unknown>;
  [extension: string]: unknown;
}

export interface HeaderObject {
  $ref?: string;
  description?: string;
  required?: boolean;
  schema?: SchemaObject;
}

export interface ResponseObject {
  $ref?: string;
  description?: string;
  headers?: Record<string, HeaderObject>;
  content?: Record<string, MediaTypeObject>;
}

export interface RequestBodyObject {
  $ref?: string;
  description?: string;
  required?: boolean;
  content?: Record<string, MediaTypeObject>;
}

export type SecurityRequirement = Record<string, string[]>;

export interface OperationObject {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: SecurityRequirement[];
  parameters?: ParameterObject[];
  requestBody?: RequestBodyObject;
  responses: Record<string, ResponseObject>;
  /** A route of the web application: in the served document, of no use to an API client. */
  'x-web-only'?: boolean;
  [extension: string]: unknown;
}

export type PathItemObject = Partial<Record<HttpMethod, OperationObject>> & {
  parameters?: ParameterObject[];
  summary?: string;
  description?: string;
};

export interface InfoObject {
  title: string;
  version: string;
  summary?: string;
  description?: string;
  [extension: string]: unknown;
}

export interface ComponentsObject {
  schemas?: Record<string, SchemaObject>;
  responses?: Record<string, ResponseObject>;
  parameters?: Record<string, ParameterObject>;
  headers?: Record<string, HeaderObject>;
  examples?: Record<string, unknown>;
  requestBodies?: Record<string, RequestBodyObject>;
  securitySchemes?: Record<string, unknown>;
  [kind: string]: Record<string, unknown> | undefined;
}

/** An OpenAPI 3.1 document as parsed from the YAML. */
export interface ApiDocument {
  openapi: string;
  info: InfoObject;
  servers?: { url: string; description?: string }[];
  security?: SecurityRequirement[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, PathItemObject>;
  components?: ComponentsObject;
  [extension: string]: unknown;
}

/** One operation with where it lives. */
export interface OperationEntry {
  method: HttpMethod;
  path: string;
  operation: OperationObject;
  /** Path-level parameters followed by the operation's own, with `$ref`s resolved. */
  parameters: ParameterObject[];
}
