/**
 * `waitForDownload` and `listDownloads` (issue 9). Chromium saves every download of the default
 * context into the host's folder, named by its guid (lib/chromium/downloads.ts); the attached
 * tab's `Page.downloadWillBegin/Progress` events say which downloads are this REPL's. A finished
 * one is linked into the REPL's own folder (or the `dir` a waiter gave) under its suggested name,
 * so nothing is ever written under `$HOME`. A download that no waiter claimed is saved there too,
 * with a note on stderr.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

import { placeFile } from '../../../common/files.js';
import { ReplError } from '../../../common/errors.js';
import { invalidArgument, nonNegativeSeconds, readOptions } from '../helper-options.js';

import type { Protocol } from 'devtools-protocol';
import type { PageDownload } from '../../cdp/cdp-client.js';
import type { HelperContext } from '../helper-context.js';

/** What `waitForDownload` resolves and `listDownloads` lists. */
export interface SavedDownload {
  path: string;
  suggestedFilename: string;
  url: string;
  bytes: number;
}

/** `name`, or `name (1).ext`, `name (2).ext`, … : the first that `taken` does not hold. */
export function uniqueFileName(name: string, taken: (candidate: string) => boolean): string {
  // A suggested name never leaves the folder.
  const safe = path.basename(name.replace(/\\/g, '/')).replace(/^\.+$/, '') || 'download';
  if (!taken(safe)) return safe;
  const extension = path.extname(safe);
  const stem = safe.slice(0, safe.length - extension.length);
  for (let index = 1; ; index++) {
    const candidate = `${stem} (${index})${extension}`;
    if (!taken(candidate)) return candidate;
  }
}

export function createDownloadHelpers(context: HelperContext) {
  const { client } = context;
  /** Downloads saved by this REPL, by path (for their URLs in listDownloads). */
  const saved = new Map<string, SavedDownload>();
  /** Guids a waiter took; the rest are saved by the watcher below. */
  const claimed = new Set<string>();
  /** Names handed out but maybe not yet on disk, per folder. */
  const reserved = new Set<string>();

  async function save(download: PageDownload, folder: string, incoming: string): Promise<SavedDownload> {
    const existing = new Set(await readdir(folder).catch(() => [] as string[]));
    const name = uniqueFileName(download.suggestedFilename, (candidate) => existing.has(candidate) || reserved.has(path.join(folder, candidate)));
    const destination = path.join(folder, name);
    reserved.add(destination);
    try {
      await placeFile(path.join(incoming, download.guid), destination);
    } catch (error) {
      throw new ReplError('REPL_ERR_DOWNLOAD_FAILED',
        `the download of ${download.url} finished, but its file could not be saved to ${destination}: ${(error as Error).message}` +
        ' (a cell that sets Browser.setDownloadBehavior itself takes downloads away from the host folder; waitForDownload takes them back)', { cause: error });
    } finally {
      reserved.delete(destination);
    }
    const entry: SavedDownload = { path: destination, suggestedFilename: download.suggestedFilename, url: download.url, bytes: (await stat(destination)).size };
    saved.set(destination, entry);
    return entry;
  }

  // Downloads of this REPL's tab that nobody waits for still land in its folder, never in $HOME.
  client.onPageEvent((event) => {
    if (event.method !== 'Page.downloadProgress') return;
    const { guid, state } = event.params as Protocol.Page.DownloadProgressEvent;
    if (state !== 'completed' || claimed.delete(guid)) return;
    const download = client.pageDownloads.get(guid);
    if (download === undefined) return;
    context.downloadFolders(false)
      .then(({ folder, incoming }) => save(download, folder, incoming))
      .then(
        (entry) => context.note(`saved a download nobody waited for: ${entry.path} (${entry.bytes} bytes, from ${entry.url}); listDownloads() lists them`),
        (error: unknown) => context.note(`a download of ${download.url} could not be saved: ${(error as Error).message}`),
      );
  });

  /**
   * Runs `action`, waits for the download it starts on the attached tab and resolves where it was
   * saved. The action's rejection rejects it; so do a canceled download and the timeout.
   */
  async function waitForDownload(action: unknown, options?: unknown): Promise<SavedDownload> {
    if (typeof action !== 'function') throw invalidArgument('waitForDownload: action must be a function that starts the download, e.g. () => click("#export")');
    const fields = readOptions('waitForDownload', options, ['timeoutSec', 'dir']);
    const seconds = nonNegativeSeconds('waitForDownload', fields['timeoutSec'], 30);
    const dir = fields['dir'];
    if (dir !== undefined && (typeof dir !== 'string' || dir === '')) throw invalidArgument('waitForDownload: dir must be a non-empty path string');
    const deadline = context.waitDeadline(seconds * 1000);
    // Taken back from anyone who changed it (a cell's own Browser.setDownloadBehavior).
    const folders = await context.downloadFolders(true);
    const sessionId = await client.ensureAttached(context.callOptions());
    const before = new Set(client.pageDownloads.keys());

    let guid: string | undefined;
    let finish!: (state: 'completed' | 'canceled') => void;
    const finished = new Promise<'completed' | 'canceled'>((resolve) => { finish = resolve; });
    const stop = client.onPageEvent((event) => {
      if (event.sessionId !== sessionId) return;
      if (event.method === 'Page.downloadWillBegin' && guid === undefined) {
        const began = (event.params as Protocol.Page.DownloadWillBeginEvent).guid;
        if (before.has(began)) return;
        guid = began;
        claimed.add(began);
      } else if (event.method === 'Page.downloadProgress') {
        const progress = event.params as Protocol.Page.DownloadProgressEvent;
        if (progress.guid === guid && progress.state !== 'inProgress') finish(progress.state);
      }
    });
    // The wait ends at its deadline or with the cell; both are released in the finally below.
    let timer: NodeJS.Timeout | undefined;
    let endWait: (() => void) | undefined;
    const { signal } = context;
    const outOfTime = new Promise<'timeout'>((resolve) => {
      endWait = () => resolve('timeout');
      timer = setTimeout(endWait, Math.max(0, deadline - Date.now()));
      signal.addEventListener('abort', endWait, { once: true });
    });
    try {
      const acting = Promise.resolve().then(() => (action as () => unknown)());
      // The action's failure wins; otherwise the download's end or the timeout.
      const outcome = await Promise.race([acting.then(() => new Promise<never>(() => {})), finished, outOfTime]);
      await acting;
      if (outcome === 'timeout') {
        throw new ReplError('REPL_ERR_DOWNLOAD_FAILED', guid === undefined
          ? `waitForDownload: no download started on the attached tab within ${seconds}s`
          : `waitForDownload: the download did not finish within ${seconds}s`);
      }
      const download = client.pageDownloads.get(guid as string);
      if (outcome === 'canceled' || download === undefined) {
        throw new ReplError('REPL_ERR_DOWNLOAD_FAILED', `waitForDownload: the download of ${download?.url ?? 'the file'} was canceled`);
      }
      return await save(download, dir === undefined ? folders.folder : path.resolve(dir as string), folders.incoming);
    } finally {
      clearTimeout(timer);
      if (endWait !== undefined) signal.removeEventListener('abort', endWait);
      stop();
      // One still running when the wait gave up is the watcher's to save; a canceled one is nobody's.
      if (guid !== undefined && client.pageDownloads.get(guid)?.state !== 'completed') claimed.delete(guid);
    }
  }

  /** Every file in this REPL's download folder, oldest first, with its URL when this worker saved it. */
  async function listDownloads(): Promise<SavedDownload[]> {
    const { folder } = await context.downloadFolders(false);
    const names = await readdir(folder).catch(() => [] as string[]);
    const entries = await Promise.all(names.map(async (name) => {
      const file = path.join(folder, name);
      const info = await stat(file);
      return { file, info };
    }));
    return entries
      .filter(({ info }) => info.isFile())
      .sort((a, b) => a.info.mtimeMs - b.info.mtimeMs)
      .map(({ file, info }) => saved.get(file) ?? { path: file, suggestedFilename: path.basename(file), url: '', bytes: info.size });
  }

  return { waitForDownload, listDownloads };
}
