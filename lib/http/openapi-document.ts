/** Loads openapi.json once: the single source of request schemas and of the documented routes. */
import { readFileSync } from 'node:fs';

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
