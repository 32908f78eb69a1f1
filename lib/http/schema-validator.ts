/**
 * Request validation compiled from openapi.json (JSON Schema 2020-12 via Ajv). Ajv's errors are
 * turned into one message that names the field; schema nodes may carry `x-error-message` with
 * the contract's exact wording.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { ReplError } from '../../common/errors.js';

/** openapi.json, loaded once: the single source of request schemas and of the documented routes. */
/** Package root, from dist/lib/http/ or lib/http/. */
const OPENAPI_URL = new URL('../../../openapi.json', import.meta.url);
const FALLBACK_URL = new URL('../../openapi.json', import.meta.url);

function load(): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(OPENAPI_URL, 'utf8')) as Record<string, unknown>;
  } catch {
    return JSON.parse(readFileSync(FALLBACK_URL, 'utf8')) as Record<string, unknown>;
  }
}

export const openapiDocument: Readonly<Record<string, unknown>> = load();

const ajv = new Ajv2020({ allErrors: true, strict: false, discriminator: true, verbose: true });
ajv.addKeyword({ keyword: 'x-error-message', schemaType: 'string' });
ajv.addSchema(openapiDocument, 'openapi');

const validators = new Map<string, ValidateFunction>();

function validatorFor(schemaName: string): ValidateFunction {
  let validate = validators.get(schemaName);
  if (validate === undefined) {
    validate = ajv.getSchema(`openapi#/components/schemas/${schemaName}`);
    if (validate === undefined) throw new Error(`openapi.json has no schema ${schemaName}`);
    validators.set(schemaName, validate);
  }
  return validate;
}

/** `timeout_sec`, `env.FOO`, or `body` for the root. */
function fieldName(error: ErrorObject): string {
  const path = error.instancePath.split('/').slice(1).map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
  return path.length === 0 ? 'body' : path.join('.');
}

// Unknown fields are reported first, as the contract's middleware does; then type errors.
const PRIORITY: Record<string, number> = { additionalProperties: 0, type: 1, required: 2 };

function messageFor(error: ErrorObject): string {
  const custom = (error.parentSchema as Record<string, unknown> | undefined)?.['x-error-message'];
  switch (error.keyword) {
    case 'additionalProperties':
      if (error.instancePath === '') {
        return `invalid request body: json: unknown field "${String(error.params['additionalProperty'])}"`;
      }
      return `invalid request body: ${fieldName(error)} has unknown field "${String(error.params['additionalProperty'])}"`;
    case 'type':
      // `type: ["string", "null"]` reads "must be string or null".
      return `invalid request body: ${fieldName(error)} must be ${[error.params['type']].flat().join(' or ')}`;
    case 'required':
      return `${String(error.params['missingProperty'])} is required`;
    default:
      if (typeof custom === 'string') return custom;
      return `invalid request body: ${fieldName(error)} ${error.message ?? 'is invalid'}`;
  }
}

/** Throws REPL_ERR_INVALID_REQUEST (400) unless `body` matches `components.schemas[schemaName]`. */
export function validateBody(schemaName: string, body: unknown): void {
  const validate = validatorFor(schemaName);
  if (validate(body)) return;
  const errors = [...(validate.errors ?? [])].sort(
    (a, b) => (PRIORITY[a.keyword] ?? 9) - (PRIORITY[b.keyword] ?? 9));
  const first = errors[0];
  throw new ReplError('REPL_ERR_INVALID_REQUEST', first === undefined ? 'invalid request body' : messageFor(first));
}
