/**
 * Finds ffmpeg, explicitly: `BROWSER_REPL_FFMPEG` (a path, or a name looked up on PATH), then
 * `ffmpeg` on PATH, then `/usr/bin/ffmpeg` (Debian's package). Nothing is installed here: the
 * installer (`npm run install-browser -- --ffmpeg`) asks first; a server without ffmpeg answers
 * the create route with `REPL_ERR_FFMPEG_NOT_FOUND`.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

import { ReplError } from '../../common/errors.js';

/** What the error says when ffmpeg is missing (the installer's flag and the Debian package). */
export const FFMPEG_INSTALL_HINT = 'install it with `npm run install-browser -- --ffmpeg` (Debian: `apt-get install -y ffmpeg`), or set BROWSER_REPL_FFMPEG to an ffmpeg executable';

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The ffmpeg executable, or null. `env` defaults to the process's. */
export function findFfmpeg(env: NodeJS.ProcessEnv = process.env, isExecutable: (file: string) => boolean = isExecutableFile): string | null {
  const dirs = (env['PATH'] ?? '').split(path.delimiter).filter((dir) => dir !== '');
  const lookup = (name: string): string | null => {
    if (name.includes('/')) return isExecutable(name) ? path.resolve(name) : null;
    for (const dir of dirs) if (isExecutable(path.join(dir, name))) return path.join(dir, name);
    return null;
  };
  const configured = env['BROWSER_REPL_FFMPEG'];
  // A configured one that is missing is an error of its own, not a reason to take another.
  if (configured !== undefined && configured !== '') return lookup(configured);
  return lookup('ffmpeg') ?? (isExecutable('/usr/bin/ffmpeg') ? '/usr/bin/ffmpeg' : null);
}

/** {@link findFfmpeg}, or the error the create route answers. */
export function requireFfmpeg(env: NodeJS.ProcessEnv = process.env): string {
  const found = findFfmpeg(env);
  if (found !== null) return found;
  const configured = env['BROWSER_REPL_FFMPEG'];
  const where = configured !== undefined && configured !== ''
    ? `BROWSER_REPL_FFMPEG=${configured} is not an executable`
    : 'no ffmpeg on PATH nor at /usr/bin/ffmpeg';
  throw new ReplError('REPL_ERR_FFMPEG_NOT_FOUND', `recording needs ffmpeg: ${where}; ${FFMPEG_INSTALL_HINT}`);
}

const encoders = new Map<string, Promise<'libx264' | 'mpeg4'>>();

/** The video encoder of this ffmpeg: H.264 (libx264) when it has it, else MPEG-4 part 2. Asked once per executable. */
export function videoEncoderOf(ffmpeg: string): Promise<'libx264' | 'mpeg4'> {
  let known = encoders.get(ffmpeg);
  if (known === undefined) {
    known = new Promise((resolve) => {
      execFile(ffmpeg, ['-hide_banner', '-encoders'], { timeout: 10_000, maxBuffer: 4 * 1024 * 1024 }, (error, stdout) => {
        resolve(error === null && /^\s*V\S*\s+libx264\s/m.test(stdout) ? 'libx264' : 'mpeg4');
      });
    });
    encoders.set(ffmpeg, known);
  }
  return known;
}
