/**
 * The pure rules of stored profiles (docs/browsers.md#profiles): which names a profile may have,
 * and which parts of a Chromium user-data directory are not worth keeping (caches, crash dumps,
 * the lock files of the process that wrote them). Kept apart from the store so that unit tests
 * check them without a disk.
 */
import { ReplError } from '../../common/errors.js';

/** The hosted product's rule for a profile's name: 1 to 255 letters, digits, `.`, `_` or `-`. */
export const PROFILE_NAME_PATTERN = /^[A-Za-z0-9._-]{1,255}$/;

/**
 * `name` when it is a valid profile name, else `REPL_ERR_INVALID_REQUEST` naming `field`.
 *
 * @throws ReplError `REPL_ERR_INVALID_REQUEST`
 */
export function checkProfileName(name: unknown, field = 'name'): string {
  if (typeof name !== 'string' || !PROFILE_NAME_PATTERN.test(name)) {
    throw new ReplError('REPL_ERR_INVALID_REQUEST', `${field} must be 1 to 255 letters, digits, ".", "_" or "-"`);
  }
  return name;
}

/**
 * Folders left out of a saved profile wherever they appear: Chromium rebuilds them, they are most
 * of a used profile's size, and they hold nothing a login needs (the hosted product leaves out
 * caches and Service Worker storage too).
 */
export const EXCLUDED_FOLDERS: ReadonlySet<string> = new Set([
  'Cache',
  'Code Cache',
  'GPUCache',
  'ShaderCache',
  'GrShaderCache',
  'GraphiteDawnCache',
  'DawnCache',
  'DawnGraphiteCache',
  'DawnWebGPUCache',
  'Crashpad',
  'Crash Reports',
  'BrowserMetrics',
  'component_crx_cache',
  'extensions_crx_cache',
]);

/** Folder paths (`/`-separated) left out wherever they appear in a path: Service Worker caches. */
export const EXCLUDED_SUBPATHS: readonly string[] = ['Service Worker/CacheStorage', 'Service Worker/ScriptCache'];

/**
 * Files of the user-data folder's top level that belong to the Chromium that wrote them, not to
 * the profile: its lock, socket and cookie links (`Singleton*`), its DevTools port and version
 * marker. Copied into a new browser they would make it think another one runs.
 */
const EXCLUDED_TOP_FILES = /^(Singleton.*|DevToolsActivePort|RunningChromeVersion|lockfile|BrowserMetrics-spare\.pma)$/;

/**
 * Whether the entry at `relative` (relative to the user-data folder, either separator) is left
 * out of a saved profile, and so also of a copy into a browser.
 */
export function isExcludedPath(relative: string): boolean {
  const parts = relative.split(/[\\/]/).filter((part) => part !== '' && part !== '.');
  if (parts.length === 0) return false;
  if (parts.length === 1 && EXCLUDED_TOP_FILES.test(parts[0]!)) return true;
  if (parts.some((part) => EXCLUDED_FOLDERS.has(part))) return true;
  const joined = `/${parts.join('/')}/`;
  return EXCLUDED_SUBPATHS.some((suffix) => joined.includes(`/${suffix}/`));
}
