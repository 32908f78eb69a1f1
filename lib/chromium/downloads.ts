/**
 * Where the browser's downloads go. Left alone, Chromium saves them into `$HOME/Downloads` of
 * whoever runs the server, undocumented (issue 9). This class instead has Chromium save every
 * download of the default context, named by its guid, into one folder it owns (`allowAndName`),
 * and each REPL moves the files of its own tab from there into a folder of its own (`<root>/<name>`).
 * The folder lives in a temporary directory of the server, not in the browser profile, so a browser
 * restart does not delete downloads; `close()` removes it.
 *
 * The behaviour is applied once per browser connection (so a cell that sets its own with raw CDP
 * keeps it until a `waitForDownload` takes downloads back) and again on every explicit `prepare`.
 * Playwright clients never reset it: the scoped endpoint keeps their own setting to themselves
 * (common/cdp/scoped-endpoint.ts).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';

import { ownedTempPrefix } from '../system/child-lifetime.js';
import type { BrowserLink } from '../../common/cdp/browser-link.js';
import type { CdpConnection } from '../../common/cdp/cdp-connection.js';

/** The folders one owner's downloads use. */
export interface DownloadFolders {
  /** Where Chromium writes every download, named by guid. */
  incoming: string;
  /** This owner's own folder. */
  folder: string;
}

export class BrowserDownloads {
  readonly #link: BrowserLink;
  #root: string | undefined;
  /** Owners whose downloads go elsewhere than `<root>/<name>` (an agent-tool session's workspace). */
  readonly #folders = new Map<string, string>();
  #appliedTo: CdpConnection | undefined;
  #closed = false;

  constructor(link: BrowserLink) {
    this.#link = link;
  }

  /** The root folder, once something asked for it. */
  get root(): string | undefined {
    return this.#root;
  }

  /**
   * The folders of `owner` (`repl:<name>`, `executor:<name>`), with Chromium's download behaviour
   * applied first: on a new browser connection always, otherwise only when `reapply` is set.
   */
  async prepare(owner: string, options: { reapply?: boolean } = {}): Promise<DownloadFolders> {
    if (this.#closed) throw new Error('downloads are closed');
    this.#root ??= mkdtempSync(ownedTempPrefix('chromium-repl-downloads'));
    const incoming = path.join(this.#root, '.incoming');
    mkdirSync(incoming, { recursive: true });
    const connection = await this.#link.connection();
    if (options.reapply === true || this.#appliedTo !== connection) {
      await this.#link.send('Browser.setDownloadBehavior', { behavior: 'allowAndName', downloadPath: incoming, eventsEnabled: false });
      this.#appliedTo = connection;
    }
    return { incoming, folder: this.#folders.get(owner) ?? path.join(this.#root, folderName(owner)) };
  }

  /** Has `owner`'s downloads saved in `folder` (absolute) instead of the host's own; `undefined` undoes it. */
  setFolder(owner: string, folder: string | undefined): void {
    if (folder === undefined) this.#folders.delete(owner);
    else this.#folders.set(owner, folder);
  }

  /** Removes every downloaded file. Idempotent. */
  close(): void {
    this.#closed = true;
    if (this.#root !== undefined) rmSync(this.#root, { recursive: true, force: true });
    this.#root = undefined;
  }
}

/** `repl:search` → `search`; `executor:x` → `executor-x`; never a path separator. */
export function folderName(owner: string): string {
  const plain = owner.startsWith('repl:') ? owner.slice('repl:'.length) : owner.replace(':', '-');
  return plain.replace(/[^\w.-]/g, '_') || 'default';
}
