/**
 * The check of an uploaded extension's `manifest.json` (docs/browsers.md#extensions): the fields
 * without which Chromium refuses to load an unpacked extension, checked at upload so that the
 * refusal names the field at once instead of a browser silently starting without it.
 */
import { ReplError } from '../../common/errors.js';

/** What the store keeps of a valid manifest. */
export interface ManifestSummary {
  readonly manifestVersion: 2 | 3;
  readonly name: string;
  readonly version: string;
}

/** Chromium's rule for `version`: one to four dot-separated integers of 0..65535, without leading zeros. */
const VERSION_PATTERN = /^(0|[1-9]\d{0,4})(\.(0|[1-9]\d{0,4})){0,3}$/;
/** The longest manifest the check reads; real ones are a few KiB. */
export const MANIFEST_MAX_BYTES = 1024 * 1024;

const invalid = (why: string) => new ReplError('REPL_ERR_EXTENSION_INVALID', `manifest.json ${why}; nothing was stored`);

/**
 * Checks the text of a `manifest.json`: JSON (a UTF-8 byte-order mark allowed, as Chromium
 * allows it), an object, `manifest_version` 3 or 2, `name` a non-empty string, `version` as
 * Chromium reads it.
 *
 * @throws ReplError `REPL_ERR_EXTENSION_INVALID` naming the field.
 */
export function checkManifest(text: string): ManifestSummary {
  if (Buffer.byteLength(text) > MANIFEST_MAX_BYTES) throw invalid(`is larger than ${MANIFEST_MAX_BYTES} bytes`);
  let manifest: unknown;
  try {
    manifest = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw invalid(`is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) throw invalid('must be a JSON object');
  const fields = manifest as Record<string, unknown>;
  const manifestVersion = fields['manifest_version'];
  if (manifestVersion !== 3 && manifestVersion !== 2) {
    throw invalid(`manifest_version must be 3 (or 2), got ${manifestVersion === undefined ? 'none' : JSON.stringify(manifestVersion)}`);
  }
  const name = fields['name'];
  if (typeof name !== 'string' || name.trim() === '') throw invalid('name must be a non-empty string');
  const version = fields['version'];
  if (typeof version !== 'string' || !VERSION_PATTERN.test(version) || version.split('.').some((part) => Number(part) > 65535)) {
    throw invalid(`version must be one to four dot-separated integers from 0 to 65535 (such as "1.0"), got ${version === undefined ? 'none' : JSON.stringify(version)}`);
  }
  return { manifestVersion, name, version };
}
