/**
 * A session's workspace: the folder its screenshots, downloads and saved snapshots go to, and the
 * only place the tools read uploads from. Every path a caller gives is resolved inside it; one
 * that escapes (`..`, an absolute path elsewhere, a symbolic link leading out) is refused.
 */
import { mkdirSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ReplError } from '../../common/errors.js';

export class Workspace {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** Creates the folder (and `sub`) if needed; returns the absolute path of `sub`. */
  ensure(sub = ''): string {
    const folder = path.join(this.root, sub);
    mkdirSync(folder, { recursive: true });
    return folder;
  }

  /**
   * The absolute path of `given` (relative to the workspace, or absolute inside it).
   * @throws ReplError `REPL_ERR_PATH_OUTSIDE_WORKSPACE`
   */
  resolve(given: unknown, field = 'path'): string {
    if (typeof given !== 'string' || given.trim() === '' || given.includes('\0')) {
      throw new ReplError('REPL_ERR_INVALID_ARGUMENT', `${field} must be a non-empty path`);
    }
    const resolved = path.resolve(this.root, given);
    if (!inside(this.root, resolved)) throw outside(field, given, this.root);
    // A link inside the workspace may still lead out: compare real paths of what exists.
    const realRoot = realOrSelf(this.root);
    let existing = resolved;
    let real = realOrNull(existing);
    while (real === null && existing !== this.root) {
      existing = path.dirname(existing);
      real = realOrNull(existing);
    }
    if (!inside(realRoot, real ?? existing)) throw outside(field, given, this.root);
    return resolved;
  }

  /** The path relative to the workspace (for messages and resource URIs). */
  relative(absolute: string): string {
    return path.relative(this.root, absolute).split(path.sep).join('/');
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

function inside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The real path of `candidate`, or null when it does not exist. */
function realOrNull(candidate: string): string | null {
  try {
    return realpathSync(candidate);
  } catch {
    return null;
  }
}

function realOrSelf(candidate: string): string {
  return realOrNull(candidate) ?? candidate;
}

function outside(field: string, given: string, root: string): ReplError {
  return new ReplError('REPL_ERR_PATH_OUTSIDE_WORKSPACE', `${field} ${JSON.stringify(given)} is outside the session's workspace (${root}); give a path inside it, such as screenshots/page.png`);
}
