/**
 * /llms.txt and /llms-full.txt, generated from the API document so they never drift from it
 * (llms.txt convention: a title, a one-line summary in a quote, then sections of Markdown).
 * Both describe the API without the web application: web-only routes never appear.
 */
import { withoutWebOnly } from './web-only.js';
import type { ApiDocument, MediaTypeObject, OperationEntry, SchemaObject } from './types.js';
import { deref, errorCodesOf, isPublicOperation, listOperations, refName } from './walk.js';

interface Section {
  heading: string | null;
  text: string;
}

/** Joins the lines of each paragraph, keeping blank lines between paragraphs. */
function reflow(text: string | undefined): string {
  if (!text) return '';
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.replace(/\s*\n\s*/g, ' ').trim())
    .join('\n\n');
}

/** Splits `info.description` into its paragraphs; a paragraph opening with `**Heading.**` is a section. */
function descriptionSections(description: string | undefined): Section[] {
  return reflow(description)
    .split('\n\n')
    .filter((p) => p.length > 0)
    .map((paragraph) => {
      const m = /^\*\*(.+?)\.\*\*\s*(.*)$/s.exec(paragraph);
      return m ? { heading: m[1], text: m[2] } : { heading: null, text: paragraph };
    });
}

function operationTitle(entry: OperationEntry): string {
  return `${entry.method.toUpperCase()} ${entry.path}`;
}

function accessNote(doc: ApiDocument, entry: OperationEntry): string {
  return isPublicOperation(doc, entry) ? 'public, no key' : 'needs X-API-Key';
}

/** A short type label for a schema: `string`, `integer | null`, `"raw" | "resampled"`, `Envelope[]`. */
export function typeLabel(schema: SchemaObject | undefined): string {
  if (!schema) return 'any';
  if (schema.$ref) return refName(schema.$ref);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  const union = schema.oneOf ?? schema.anyOf;
  if (union) return union.map(typeLabel).join(' | ');
  if (schema.allOf) return schema.allOf.map(typeLabel).join(' & ');
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return 'any';
  return types
    .map((type) => {
      if (type === 'array') {
        const item = typeLabel(schema.items);
        return item.includes(' ') ? `(${item})[]` : `${item}[]`;
      }
      if (type === 'object' && typeof schema.additionalProperties === 'object') return `map of ${typeLabel(schema.additionalProperties)}`;
      if (type === 'string' && schema.format) return `string (${schema.format})`;
      return type;
    })
    .join(' | ');
}

function range(lo: number | undefined, hi: number | undefined, unit: string): string | null {
  if (lo === undefined && hi === undefined) return null;
  if (lo !== undefined && hi !== undefined) return `${lo}..${hi}${unit}`;
  return lo !== undefined ? `>= ${lo}${unit}` : `<= ${hi}${unit}`;
}

/** The rules of a schema in words: bounds, lengths, item counts, default, pattern. */
function constraints(schema: SchemaObject): string[] {
  const out: string[] = [];
  const bounds = [range(schema.minimum, schema.maximum, ''), range(schema.minLength, schema.maxLength, ' chars'), range(schema.minItems, schema.maxItems, ' items')];
  for (const b of bounds) if (b) out.push(b);
  if (schema.uniqueItems) out.push('unique');
  if (schema.pattern) out.push(`pattern ${schema.pattern}`);
  if (schema.default !== undefined) out.push(`default ${JSON.stringify(schema.default)}`);
  return out;
}

/** One line per property of an object schema; `closed` notes that a request body refuses other fields. */
function fieldLines(doc: ApiDocument, schema: SchemaObject, closed: boolean): string[] {
  const resolved = deref(doc, schema);
  const required = new Set(resolved.required ?? []);
  const lines = Object.entries(resolved.properties ?? {}).map(([name, raw]) => {
    const property = deref(doc, raw);
    const parts = [typeLabel(raw), required.has(name) ? 'required' : 'optional', ...constraints(property)];
    // A referenced schema's own description belongs to its section, not to every field using it.
    const description = reflow(raw.$ref ? raw.description : property.description).replace(/\n\n/g, ' ');
    return `- \`${name}\` (${parts.join(', ')})${description ? `: ${description}` : ''}`;
  });
  if (closed && resolved.additionalProperties === false) lines.push('- No other fields: an unrecognised field gives 422 VALIDATION_ERROR.');
  return lines;
}

function parameterLines(entry: OperationEntry): string[] {
  return entry.parameters.map((p) => {
    const schema = p.schema ?? {};
    const parts = [p.in, typeLabel(schema), p.required ? 'required' : 'optional', ...constraints(schema)];
    return `- \`${p.name}\` (${parts.join(', ')})${p.description ? `: ${reflow(p.description)}` : ''}`;
  });
}

function bodyLines(doc: ApiDocument, entry: OperationEntry): string[] {
  const body = entry.operation.requestBody ? deref(doc, entry.operation.requestBody) : undefined;
  if (!body?.content) return [];
  const lines: string[] = [];
  for (const [mediaType, media] of Object.entries(body.content) as [string, MediaTypeObject][]) {
    lines.push('', `Request body (${mediaType}, ${body.required ? 'required' : 'optional'}):`);
    if (!media.schema) continue;
    const schema = deref(doc, media.schema);
    if (schema.properties) lines.push(...fieldLines(doc, media.schema, true));
    else lines.push(`- ${typeLabel(media.schema)}${schema.description ? `: ${reflow(schema.description)}` : ''}`);
  }
  return lines;
}

function responseLines(doc: ApiDocument, entry: OperationEntry): string[] {
  return Object.entries(entry.operation.responses).map(([status, raw]) => {
    const response = deref(doc, raw);
    const description = reflow(response.description).replace(/\n\n/g, ' ');
    const codes = errorCodesOf(doc, raw);
    const headers = Object.keys(response.headers ?? {});
    const headerNote = headers.length > 0 ? ` (header ${headers.join(', ')})` : '';
    if (codes.length > 0) return `- ${status} ${codes.join(', ')}${headerNote}: ${description}`;
    const media = Object.entries(response.content ?? {}).map(([type, m]) => (m.schema ? `${type}, ${typeLabel(m.schema)}` : type));
    return `- ${status}${media.length > 0 ? ` (${media.join('; ')})` : ''}${headerNote}: ${description}`;
  });
}

/** The error table: every code with its HTTP status and condition, from `ErrorCode`'s `x-codes`. */
export function errorTable(doc: ApiDocument): { code: string; status: number; condition: string }[] {
  const errorCode = doc.components?.schemas?.ErrorCode;
  const codes = (errorCode?.['x-codes'] ?? {}) as Record<string, { status: number; condition: string }>;
  return (errorCode?.enum ?? []).map((code) => {
    const entry = codes[String(code)];
    if (!entry) throw new Error(`ErrorCode ${String(code)} has no x-codes entry`);
    return { code: String(code), status: entry.status, condition: entry.condition };
  });
}

function schemaLines(doc: ApiDocument, name: string, schema: SchemaObject): string[] {
  const lines = [`### ${name}`];
  const description = reflow(schema.description);
  if (description) lines.push('', description);
  if (schema.properties) lines.push('', ...fieldLines(doc, schema, false));
  else lines.push('', `Type: ${typeLabel(schema)}`);
  return lines;
}

/** llms.txt: title, summary, what the service is, authentication, lifecycle, one line per public operation. */
export function llmsText(doc: ApiDocument): string {
  const pub = withoutWebOnly(doc);
  const sections = descriptionSections(pub.info.description);
  const wanted = ['Research software', 'Authentication', 'Lifecycle', 'Errors'];
  const lines = [`# ${pub.info.title}`, ''];
  if (pub.info.summary) lines.push(`> ${pub.info.summary}`, '');
  for (const section of sections.filter((s) => s.heading === null)) lines.push(section.text, '');
  for (const heading of wanted) {
    const section = sections.find((s) => s.heading === heading);
    if (section) lines.push(`## ${heading}`, '', section.text, '');
  }
  lines.push('## Operations', '');
  for (const entry of listOperations(pub)) {
    lines.push(`- \`${operationTitle(entry)}\`: ${entry.operation.summary ?? entry.operation.operationId} (${accessNote(pub, entry)})`);
  }
  lines.push(
    '',
    '## More',
    '',
    '- `/llms-full.txt`: every operation with its parameters, request fields, responses and error codes',
    `- \`/v1/openapi.json\`: the OpenAPI ${pub.openapi} document, API version ${pub.info.version}`,
    '',
  );
  return lines.join('\n');
}

/** llms-full.txt: every public operation in full, the error table and the schemas they use. */
export function llmsFullText(doc: ApiDocument): string {
  const pub = withoutWebOnly(doc);
  const lines = [`# ${pub.info.title} (full description, API version ${pub.info.version})`, ''];
  if (pub.info.summary) lines.push(`> ${pub.info.summary}`, '');
  for (const section of descriptionSections(pub.info.description)) {
    if (section.heading) lines.push(`## ${section.heading}`, '');
    lines.push(section.text, '');
  }
  lines.push('# Operations', '');
  for (const entry of listOperations(pub)) {
    const op = entry.operation;
    lines.push(`## ${operationTitle(entry)}`, '', `${op.summary ?? ''} (operationId \`${op.operationId}\`, ${accessNote(pub, entry)})`);
    const description = reflow(op.description);
    if (description) lines.push('', description);
    const parameters = parameterLines(entry);
    if (parameters.length > 0) lines.push('', 'Parameters:', ...parameters);
    lines.push(...bodyLines(pub, entry));
    lines.push('', 'Responses:', ...responseLines(pub, entry), '');
  }
  lines.push('# Errors', '', 'Every error is `{error, message, context}`; `context` says what would have worked.', '');
  lines.push('| HTTP | error | condition |', '|---|---|---|');
  for (const row of errorTable(pub)) lines.push(`| ${row.status} | \`${row.code}\` | ${row.condition} |`);
  lines.push('', '# Schemas', '');
  for (const [name, schema] of Object.entries(pub.components?.schemas ?? {})) lines.push(...schemaLines(pub, name, schema), '');
  return lines.join('\n').replace(/\n{3,}/g, '\n\n');
}
