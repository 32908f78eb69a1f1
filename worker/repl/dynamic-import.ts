/**
 * The default loader behind a cell's `import()` (repl-contract §7.7): Node built-ins with or
 * without `node:`, bare specifiers from this package's own install location and then from the
 * global npm root, paths and `file:` URLs against `process.cwd()`. Node caches every module for
 * the life of the process, so a cell re-importing a module gets the same instance.
 */
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

/**
 * Directories that hold globally installed packages, derived without spawning npm: every
 * `NODE_PATH` entry, `$npm_config_prefix/lib/node_modules`, and
 * `<dirname(dirname(execPath))>/lib/node_modules`. Read on every call: `/repl/env` may change the
 * environment of a running REPL.
 */
export function globalModuleRoots(env: NodeJS.ProcessEnv = process.env, execPath: string = process.execPath): string[] {
  const roots = (env['NODE_PATH'] ?? '').split(delimiter).filter((entry) => entry !== '');
  const prefix = env['npm_config_prefix'];
  if (prefix !== undefined && prefix !== '') roots.push(join(prefix, 'lib', 'node_modules'));
  roots.push(join(dirname(dirname(execPath)), 'lib', 'node_modules'));
  return [...new Set(roots.map((root) => resolve(root)))];
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

function resolveFromGlobalRoots(specifier: string): string | undefined {
  for (const root of globalModuleRoots()) {
    const resolved = resolveInRoot(root, specifier);
    if (resolved !== undefined) return resolved;
  }
  return undefined;
}

/**
 * Loads a module for a cell's `import()` and resolves to its namespace.
 *
 * @param specifier As written in the cell.
 * @param _referrer The cell module's identifier; resolution does not depend on it because
 *   relative paths resolve against `process.cwd()`.
 * @throws Node's own resolution or load error (e.g. `ERR_MODULE_NOT_FOUND`, message kept) when
 *   nothing resolves.
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
    const fallback = resolveFromGlobalRoots(specifier);
    if (fallback === undefined) throw error;
    return load(pathToFileURL(fallback).href, attributes);
  }
  return load(resolved, attributes);
}
