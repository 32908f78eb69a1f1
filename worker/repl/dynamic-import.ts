/**
 * The default loader behind a cell's `import()` (docs/architecture.md, "Cells"): Node built-ins with or
 * without `node:`, bare specifiers from this package's own install location and then from the
 * global npm root (where `npm install -g`, e.g. through `POST /process/exec`, puts packages),
 * paths and `file:` URLs against `process.cwd()`. Node caches every module for the life of the
 * process, so a cell re-importing a module gets the same instance.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { delimiter, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Import attributes of `import(specifier, { with: {...} })`. */
export type ImportAttributes = Readonly<Record<string, string>>;

/** Signature of a cell's module loader; resolves to the module namespace (or any object). */
export type ImportModule = (
  specifier: string,
  referrer: string,
  attributes?: ImportAttributes,
) => Promise<Record<string, unknown>>;

const URL_SCHEME = /^[A-Za-z][A-Za-z\d+.-]*:/;
const require = createRequire(import.meta.url);

/** npm's prefix from the environment (npm reads `npm_config_*` in any case), or undefined. */
function npmPrefix(env: NodeJS.ProcessEnv): string | undefined {
  const prefix = env['npm_config_prefix'] ?? env['NPM_CONFIG_PREFIX'];
  return prefix === undefined || prefix === '' ? undefined : prefix;
}

/**
 * Directories that hold globally installed packages, derived without spawning npm: every
 * `NODE_PATH` entry, `$npm_config_prefix/lib/node_modules`, and
 * `<dirname(dirname(execPath))>/lib/node_modules` (npm's default prefix). Read on every call:
 * `/repl/env` may change the environment of a running REPL.
 */
export function globalModuleRoots(env: NodeJS.ProcessEnv = process.env, execPath: string = process.execPath): string[] {
  const roots = (env['NODE_PATH'] ?? '').split(delimiter).filter((entry) => entry !== '');
  const prefix = npmPrefix(env);
  if (prefix !== undefined) roots.push(join(prefix, 'lib', 'node_modules'));
  roots.push(join(dirname(dirname(execPath)), 'lib', 'node_modules'));
  return [...new Set(roots.map((root) => resolve(root)))];
}

/** `npm root -g` may take a moment (npm starts a Node process); beyond this it counts as failed. */
const NPM_ROOT_TIMEOUT_MS = 5_000;
let npmRootAnswer: Promise<string | undefined> | undefined;

/**
 * The answer of `npm root -g`, asked once per worker and only when no environment variable names
 * npm's prefix: it also knows a prefix set in an `.npmrc`, which `globalModuleRoots` cannot see.
 * Resolves to undefined when npm is missing, fails or is too slow.
 */
export function npmGlobalRoot(): Promise<string | undefined> {
  npmRootAnswer ??= new Promise<string | undefined>((resolveRoot) => {
    // No update check: it would reach the registry from a cell's import().
    const env = { ...process.env, npm_config_update_notifier: 'false' };
    execFile('npm', ['root', '-g'], { env, encoding: 'utf8', timeout: NPM_ROOT_TIMEOUT_MS, windowsHide: true }, (error, stdout) => {
      const root = stdout.trim();
      resolveRoot(error === null && root !== '' ? resolve(root) : undefined);
    });
  });
  return npmRootAnswer;
}

function load(url: string, attributes: ImportAttributes | undefined): Promise<Record<string, unknown>> {
  if (attributes === undefined || Object.keys(attributes).length === 0) return import(url);
  return import(url, { with: attributes });
}

function isRelativeOrAbsolutePath(specifier: string): boolean {
  return (
    specifier === '.' ||
    specifier === '..' ||
    specifier.startsWith('./') ||
    specifier.startsWith('../') ||
    specifier.startsWith('/')
  );
}

/** Picks an `exports` target by Node's rules for the conditions `import`, `node`, `default`. */
function exportsTarget(target: unknown): string | undefined {
  if (typeof target === 'string') return target;
  if (Array.isArray(target)) {
    for (const candidate of target) {
      const chosen = exportsTarget(candidate);
      if (chosen !== undefined) return chosen;
    }
    return undefined;
  }
  if (target === null || typeof target !== 'object') return undefined;
  for (const [condition, value] of Object.entries(target)) {
    if (condition === 'import' || condition === 'node' || condition === 'default') {
      const chosen = exportsTarget(value);
      if (chosen !== undefined) return chosen;
    }
  }
  return undefined;
}

/** The file an `exports` field maps `subpath` (`.` or `./x`) to: exact keys, then `*` patterns. */
function resolveExports(packageDir: string, exports: unknown, subpath: string): string | undefined {
  const isSubpathMap =
    typeof exports === 'object' &&
    exports !== null &&
    !Array.isArray(exports) &&
    Object.keys(exports).some((key) => key.startsWith('.'));
  if (!isSubpathMap) {
    const target = subpath === '.' ? exportsTarget(exports) : undefined;
    return target === undefined ? undefined : join(packageDir, target);
  }
  const map = exports as Record<string, unknown>;
  if (Object.hasOwn(map, subpath)) {
    const target = exportsTarget(map[subpath]);
    return target === undefined ? undefined : join(packageDir, target);
  }
  let best: { prefix: string; key: string } | undefined;
  for (const key of Object.keys(map)) {
    const star = key.indexOf('*');
    if (star === -1) continue;
    const prefix = key.slice(0, star);
    const suffix = key.slice(star + 1);
    const fits = subpath.length >= key.length && subpath.startsWith(prefix) && subpath.endsWith(suffix);
    if (fits && (best === undefined || prefix.length > best.prefix.length)) best = { prefix, key };
  }
  if (best === undefined) return undefined;
  const suffixLength = best.key.length - best.prefix.length - 1;
  const match = subpath.slice(best.prefix.length, subpath.length - suffixLength);
  const target = exportsTarget(map[best.key]);
  return target === undefined ? undefined : join(packageDir, target.replaceAll('*', match));
}

/**
 * Resolves `specifier` inside one global root, which holds packages directly (like NODE_PATH
 * entries), so Node's node_modules walk does not apply. Packages with `exports` are resolved
 * with ESM conditions; others through CommonJS resolution (`main`, index files, extensions).
 */
function resolveInRoot(root: string, specifier: string): string | undefined {
  const parts = specifier.split('/');
  const nameLength = specifier.startsWith('@') ? 2 : 1;
  if (parts.length < nameLength || parts.slice(0, nameLength).some((part) => part === '' || part === '.' || part === '..')) {
    return undefined;
  }
  const packageDir = join(root, ...parts.slice(0, nameLength));
  let manifest: { exports?: unknown } | undefined;
  try {
    manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { exports?: unknown };
  } catch {
    manifest = undefined;
  }
  if (manifest?.exports !== undefined && manifest.exports !== null) {
    return resolveExports(packageDir, manifest.exports, ['.', ...parts.slice(nameLength)].join('/'));
  }
  try {
    return require.resolve(join(root, specifier));
  } catch {
    return undefined;
  }
}

/** The file `specifier` names in the first global root that has it, and every root looked in. */
async function resolveFromGlobalRoots(specifier: string): Promise<{ resolved: string | undefined; searched: string[] }> {
  const searched = globalModuleRoots();
  for (const root of searched) {
    const resolved = resolveInRoot(root, specifier);
    if (resolved !== undefined) return { resolved, searched };
  }
  if (npmPrefix(process.env) === undefined) {
    const npmRoot = await npmGlobalRoot();
    if (npmRoot !== undefined && !searched.includes(npmRoot)) {
      searched.push(npmRoot);
      const resolved = resolveInRoot(npmRoot, specifier);
      if (resolved !== undefined) return { resolved, searched };
    }
  }
  return { resolved: undefined, searched };
}

/**
 * Adds the global folders to Node's resolution error, whose message names only the place it
 * looked in; code and stack stay Node's. A value that is not an error object is left alone.
 */
function withSearchedRoots(error: unknown, searched: readonly string[]): unknown {
  if (error === null || typeof error !== 'object' || searched.length === 0) return error;
  const failure = error as { message?: unknown; stack?: unknown };
  if (typeof failure.message !== 'string') return error;
  const original = failure.message;
  const plural = searched.length > 1 ? 's' : '';
  try {
    const message = `${original} (also looked in the global npm folder${plural} ${searched.join(', ')}, where npm install -g puts packages)`;
    failure.message = message;
    if (typeof failure.stack === 'string') failure.stack = failure.stack.replace(original, message);
  } catch {
    // A frozen or exotic error keeps its own message.
  }
  return error;
}

/**
 * Loads a module for a cell's `import()` and resolves to its namespace.
 *
 * @param specifier As written in the cell.
 * @param _referrer The cell module's identifier; resolution does not depend on it because
 *   relative paths resolve against `process.cwd()`.
 * @throws Node's own resolution or load error (e.g. `ERR_MODULE_NOT_FOUND`, its message extended
 *   with the global folders also looked in) when nothing resolves.
 */
export async function importModule(
  specifier: string,
  _referrer?: string,
  attributes?: ImportAttributes,
): Promise<Record<string, unknown>> {
  if (isBuiltin(specifier) || URL_SCHEME.test(specifier)) return load(specifier, attributes);
  if (isRelativeOrAbsolutePath(specifier)) {
    return load(pathToFileURL(resolve(process.cwd(), specifier)).href, attributes);
  }
  let resolved: string;
  try {
    // ESM resolution with import conditions, from this package's own node_modules.
    resolved = import.meta.resolve(specifier);
  } catch (error) {
    // Not keyed on error.code: behind off-thread loader hooks (e.g. a test runner's) the
    // resolution error arrives without it.
    const { resolved: fallback, searched } = await resolveFromGlobalRoots(specifier);
    if (fallback === undefined) throw withSearchedRoots(error, searched);
    return load(pathToFileURL(fallback).href, attributes);
  }
  return load(resolved, attributes);
}
