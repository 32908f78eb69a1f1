/**
 * File helpers both threads use for downloads: the scoped endpoint hands a finished download to
 * its Playwright client, a REPL files one into its folder (docs/real-world-flows.md#downloads).
 */
import { copyFile, link, mkdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * Makes `source` also appear at `destination` (its folder created): a hard link, so a 10 MiB
 * download is never copied, or a copy when the two are on different file systems.
 */
export async function placeFile(source: string, destination: string): Promise<void> {
  await mkdir(path.dirname(destination), { recursive: true });
  try {
    await link(source, destination);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EXDEV' && code !== 'EPERM') throw error;
    await copyFile(source, destination);
  }
}
