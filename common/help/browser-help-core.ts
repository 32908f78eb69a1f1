/** Help entries of the core browser helpers (navigation, evaluation, tabs, events, screenshots, files). */
import type { HelpEntry } from './format-help.js';

const DIALOG_NOTE =
  'If a JavaScript dialog blocks the page it fails at once with REPL_ERR_DIALOG_OPEN instead of hanging; handle the dialog with cdp("Page.handleJavaScriptDialog", { accept: true }) (see pageInfo).';

export const CORE_BROWSER_HELP: readonly HelpEntry[] = [
  {
    name: 'browser.cdp',
    group: 'Browser control',
    signature: 'cdp(method: string, params?: object, sessionId?: string | null): Promise<object>',
    description:
      'Sends one raw Chrome DevTools Protocol command and resolves its result. Routing: sessionId null sends it browser-level; a session id string sends it on that session as is (never retried); omitted, Target.*, Browser.*, SystemInfo.* and Storage.* go browser-level and everything else goes to the attached page (attaching one first). Only observational commands are retried after a dropped connection; others fail with REPL_ERR_CDP_OUTCOME_UNKNOWN rather than run twice. CDP errors throw "CDP <method> failed: <message> (code <n>)"; each command times out after 30 s or 500 ms before the cell deadline. It is also the way out of a dialog: cdp("Page.handleJavaScriptDialog", { accept: true }).',
    example: 'const { result } = await cdp("Runtime.evaluate", { expression: "1 + 1", returnByValue: true });\nrepl.write(result.value);',
  },
  {
    name: 'browser.drainEvents',
    group: 'Browser control',
    signature: 'drainEvents(): Promise<Array<{ method, params, sessionId?, time }>>',
    description:
      'Attaches a page if none is attached, then returns every buffered CDP event of the connection (all sessions and browser-level events, oldest first, time in Unix ms) and empties the buffer. The buffer keeps the newest 500 events; Network events fill it quickly on busy pages, so drain before acting and filter by method.',
    example: 'await drainEvents();\nawait gotoUrl("https://example.com");\nawait waitForLoad();\nrepl.write((await drainEvents()).filter((e) => e.method === "Page.loadEventFired").length);',
  },
  {
    name: 'browser.waitForEvent',
    group: 'Browser control',
    signature: 'waitForEvent(method: string, options?: { sessionId?: string | null, timeoutSec?: number, predicate?: (event) => boolean }): Promise<{ method, params, sessionId?, time } | null>',
    description:
      'Arms a one-shot waiter for the next CDP event named method and returns its promise: the event, or null after timeoutSec (default 30, clamped to 500 ms before the cell deadline). Only events that arrive after arming count, so arm first, then act, then await. Without sessionId it waits on the attached page (and throws if none is attached); sessionId null waits for browser-level events; a string waits on that session. predicate skips events it returns false for; if it throws, the promise rejects. Validation errors throw synchronously.',
    example: 'const loaded = waitForEvent("Page.loadEventFired", { timeoutSec: 10 });\nawait cdp("Page.reload");\nrepl.write(Boolean(await loaded));',
  },
  {
    name: 'browser.gotoUrl',
    group: 'Browser control',
    signature: 'gotoUrl(url: string, options?: { waitUntil?: "commit" | "domcontentloaded" | "load", timeoutSec?: number }): Promise<{ frameId, loaderId?, errorText? }>',
    description:
      'Navigates the attached page (attaching one first) and resolves the raw Page.navigate result. By default (waitUntil "commit", as the hosted helper) it resolves once Chromium has committed the navigation, before the new document has loaded: its title and content may not be there yet, so pageInfo().title right after it can still be "". waitUntil "load" also waits for the new document\'s load (readyState "complete"), "domcontentloaded" for its DOMContentLoaded; that wait lasts at most timeoutSec (default 30, clamped to 500 ms before the cell deadline) and then throws REPL_ERR_LOAD_TIMEOUT (the navigation itself happened). A failed navigation does not throw: errorText is set and a browser-repl note goes to stderr. Never retried after a dropped connection. A beforeunload dialog that holds the navigation makes it fail with REPL_ERR_DIALOG_OPEN.',
    example: 'const nav = await gotoUrl("https://example.com", { waitUntil: "load" });\nif (nav.errorText) throw new Error(nav.errorText);\nrepl.write((await pageInfo()).title);',
  },
  {
    name: 'browser.pageInfo',
    group: 'Browser control',
    signature: 'pageInfo(): Promise<{ url, title, viewport: { width, height }, scroll: { x, y }, page: { width, height }, ready_state, dialog }>',
    description:
      'Describes the attached page with one evaluation: url, title, viewport (innerWidth/innerHeight), scroll offsets, page (document scroll size), ready_state and dialog (null, or { type, message } of an open alert/confirm/prompt/beforeunload). While a dialog is open nothing is evaluated (the page is frozen): it resolves { url, title, dialog } from the browser\'s target list instead, also when the dialog opens during the call. Close the dialog with cdp("Page.handleJavaScriptDialog", { accept: true }) (accept: false to cancel; promptText for a prompt).',
    example: 'const info = await pageInfo();\nif (info.dialog) await cdp("Page.handleJavaScriptDialog", { accept: true });\nrepl.write(info.title);',
  },
  {
    name: 'browser.captureScreenshot',
    group: 'Browser control',
    signature: 'captureScreenshot(path?: string, fullPage?: boolean, maxDim?: number): Promise<string>; captureScreenshot(options: { path?, fullPage?, maxDim?, format?, quality?, clip?, selector? }): Promise<string>',
    description:
      'Captures the attached page, writes the image to path (default /tmp/shot.png, parent folders created, file overwritten) and resolves the path; show it with repl.emitImage({ path }). format is png (default), jpeg or webp, taken from the option or the path extension; quality 0-100 applies to jpeg and webp. fullPage: true captures the whole scroll height and width, not just the viewport. maxDim (positive integer) scales the image down, never up, so its longer side is at most maxDim device pixels (aspect ratio kept). clip { x, y, width, height } (CSS pixels, document coordinates) or selector (first match) capture a region. The second argument may also be an options object: captureScreenshot(path, { fullPage: true }). ' + DIALOG_NOTE,
    example: 'await repl.emitImage({ path: await captureScreenshot("/tmp/page.jpg", { fullPage: true, maxDim: 1600, quality: 70 }) });',
  },
  {
    name: 'browser.setViewport',
    group: 'Browser control',
    signature: 'setViewport(viewport: { width: number, height: number, deviceScaleFactor?: number, mobile?: boolean } | null): Promise<void>',
    description:
      'Sets the attached tab\'s viewport by emulation (Emulation.setDeviceMetricsOverride): width and height in CSS pixels (integers 1-10000), deviceScaleFactor (default 1, at most 10) and mobile (default false: true applies the page\'s meta viewport and mobile scrollbars; touch is not emulated). pageInfo().viewport, media queries and screen.width follow it, and captureScreenshot images are width × deviceScaleFactor pixels wide. The override lasts while this REPL is attached to the tab: after switchTab to another tab the tab shows its window\'s size (the server\'s default viewport, 1280×720 unless configured), and switchTab back sets it again; a dropped connection, a browser restart or a reset forget it, and popups get their window\'s size. null removes the override. ' + DIALOG_NOTE,
    example: 'await setViewport({ width: 390, height: 844, deviceScaleFactor: 3, mobile: true });\nrepl.write(JSON.stringify((await pageInfo()).viewport));',
  },
  {
    name: 'browser.listTabs',
    group: 'Browser control',
    signature: 'listTabs(includeChrome?: boolean): Promise<Array<{ targetId, title, url }>>',
    description:
      'Lists the browser\'s page targets in Chromium\'s order without attaching anything. includeChrome (default true) false drops internal pages: chrome://, chrome-extension://, chrome-untrusted://, devtools://, edge:// and about: URLs (about:blank included).',
    example: 'repl.write((await listTabs(false)).map((tab) => tab.url).join("\\n"));',
  },
  {
    name: 'browser.currentTab',
    group: 'Browser control',
    signature: 'currentTab(): Promise<{ targetId, title, url }>',
    description:
      'The attached target. If none is attached, a named REPL (POST /repl with "repl") attaches its own tab, opened in the background on first use and reopened if it was closed; the default REPL attaches the previous target, else the first page with a real URL, else any page, else a new about:blank tab, and never a tab that a named REPL or executor owns. Throws REPL_ERR_TARGET_NOT_FOUND ("attached target no longer exists") if the attached target has disappeared.',
    example: 'repl.write((await currentTab()).url);',
  },
  {
    name: 'browser.switchTab',
    group: 'Browser control',
    signature: 'switchTab(target: string | { targetId: string }): Promise<string>',
    description:
      'Attaches the given target (an id, or an object from listTabs, currentTab or iframeTarget) and resolves its session id. Page helpers then act on it. It brings the tab to the foreground (headless Chromium cancels dialogs of background tabs) and detaches the previous session; switching to the attached target is a no-op returning the same session id. Unknown ids throw REPL_ERR_TARGET_NOT_FOUND; a tab that a named REPL or executor owns (another one than this REPL) throws REPL_ERR_INVALID_ARGUMENT naming its owner.',
    example: 'const [first] = await listTabs(false);\nawait switchTab(first);',
  },
  {
    name: 'browser.newTab',
    group: 'Browser control',
    signature: 'newTab(url?: string): Promise<string>',
    description:
      'Opens url (default about:blank) in a tab, attaches it and resolves its target id. With a url and an attached tab that is still blank (about:blank or a new-tab page) that tab is navigated instead of opening another. Otherwise a blank tab is created, attached and then navigated, so its dialogs and events are seen from the start. It resolves once the renderer shows the new URL (an immediate js("location.href") sees it), without waiting for load. Navigation errors are reported (stderr note, as gotoUrl), never retried in a second tab.',
    example: 'const id = await newTab("https://example.com");\nawait waitForLoad();\nrepl.write(id);',
  },
  {
    name: 'browser.closeTab',
    group: 'Browser control',
    signature: 'closeTab(target?: string | { targetId: string }): Promise<void>',
    description:
      'Closes the target (default: the attached tab) and waits up to 5 s until Chromium no longer lists it, so an immediate listTabs() does not count it. Closing the attached tab detaches it; the next page helper attaches another page (in a named REPL: a new tab of its own). Throws REPL_ERR_TARGET_NOT_FOUND when nothing is attached and no target was given, or when the id does not exist.',
    example: 'const id = await newTab("https://example.com");\nawait closeTab(id);',
  },
  {
    name: 'browser.waitForPopup',
    group: 'Browser control',
    signature: 'waitForPopup(action: () => Promise<unknown>, options?: { timeoutSec?: number }): Promise<{ targetId, url, title }>',
    description:
      'Runs action and resolves the tab it opened (a link with target=_blank, window.open), without enabling target discovery. It is armed before action runs, so a popup that opens before action\'s promise settles counts; only a popup whose opener is the attached tab counts, so another REPL\'s popups never resolve it. It resolves once the popup has committed its first document: url is the page\'s (not the about:blank of a tab on its way to a URL; window.open() without a URL gives about:blank) and title the page\'s once it has set one (up to 0.5 s after the commit; until then Chromium shows the address). It also waits for action\'s promise, and rejects with action\'s error if it rejects. After timeoutSec (default 10, clamped to 500 ms before the cell deadline) without a popup it throws REPL_ERR_TARGET_NOT_FOUND. The REPL stays attached to the opener, which is kept in the foreground; the popup waits in the background until switchTab(popup). In a named REPL the popup is that REPL\'s tab: other REPLs and executors never attach it, and it closes with the REPL.',
    example: 'const popup = await waitForPopup(() => click("a[target=_blank]"));\nawait switchTab(popup);\nawait waitForLoad();\nrepl.write(popup.url);',
  },
  {
    name: 'browser.ensureRealTab',
    group: 'Browser control',
    signature: 'ensureRealTab(): Promise<{ targetId, title, url } | null>',
    description:
      'Makes sure a page with real content is attached: resolves the attached tab if its URL is not internal (about:, chrome://, ...), else attaches and resolves the first real tab, else resolves null. It never creates a tab (use newTab).',
    example: 'const tab = (await ensureRealTab()) ?? { targetId: await newTab("https://example.com") };',
  },
  {
    name: 'browser.iframeTarget',
    group: 'Browser control',
    signature: 'iframeTarget(urlSubstring: string): Promise<{ targetId, url, title, type } | null>',
    description:
      'Finds the first cross-site (out-of-process) iframe target whose URL contains urlSubstring ("" matches any), or null; nothing is attached. Evaluate inside it with js(fn, { targetId }), or attach it with switchTab. Same-site iframes are not separate targets: reach them through contentDocument in js(). Frames appear a moment after the page loads, so poll when needed.',
    example: 'const frame = await iframeTarget("widget.example");\nif (frame) repl.write(await js(() => document.title, { targetId: frame.targetId }));',
  },
  {
    name: 'browser.waitMs',
    group: 'Browser control',
    signature: 'waitMs(milliseconds?: number): Promise<void>',
    description:
      'Sleeps milliseconds (default 1000). The value must be a non-negative finite number. A sleep that would run past 500 ms before the cell deadline throws REPL_ERR_INVALID_ARGUMENT at once instead of letting the cell run into its timeout.',
    example: 'await waitMs(250);',
  },
  {
    name: 'browser.waitForLoad',
    group: 'Browser control',
    signature: 'waitForLoad(timeoutSec?: number): Promise<boolean>',
    description:
      'Resolves true once the attached page\'s document.readyState is "complete", polling every 100 ms, or false after timeoutSec (default 15, clamped to 500 ms before the cell deadline). While a navigation of the main frame is under way (gotoUrl, newTab, a clicked link, page code setting location) it waits for the new document: the page being replaced never counts as loaded. timeoutSec must be a non-negative finite number. ' + DIALOG_NOTE,
    example: 'await gotoUrl("https://example.com");\nif (!(await waitForLoad(20))) repl.write("still loading");',
  },
  {
    name: 'browser.waitForNetworkIdle',
    group: 'Browser control',
    signature: 'waitForNetworkIdle(idleSec?: number, timeoutSec?: number): Promise<boolean>',
    description:
      'Resolves true once the attached page has had no request in flight for idleSec (default 0.5), or false after timeoutSec (default 30, clamped to 500 ms before the cell deadline). Both must be non-negative finite numbers. Only the attached page\'s requests count, tracked since it was attached (attaching counts as activity, so a first call waits at least idleSec); requests that never finish (long polling) keep it busy.',
    example: 'await gotoUrl("https://example.com");\nawait waitForNetworkIdle(0.5, 10);',
  },
  {
    name: 'browser.js',
    group: 'Browser control',
    signature: 'js(expressionOrFunction: string | Function, options?: { arg?: unknown, targetId?: string }): Promise<unknown>',
    description:
      'Evaluates in the attached page, exactly once (never retried; a dropped connection reports an unknown outcome). A string is one expression sent as is; a returned promise is awaited. A function is rebuilt in the page from its source (it cannot see REPL variables) and called with arg if given; arg and the result keep bigint, NaN, Infinity, -Infinity, -0, undefined, sparse arrays and nested plain objects exactly. arg rejects functions, symbols, cycles and non-plain objects (class instances, Date, Map) with clear errors; results without a by-value form (DOM nodes, functions, Map) become undefined; a thrown or returned Error rejects with the page error (REPL_ERR_PAGE_EVALUATION). targetId evaluates in another target (an iframe from iframeTarget, another tab) through a temporary session. Page promises may run until the cell deadline. ' + DIALOG_NOTE,
    example: 'repl.write(await js("document.title"));\nconst links = await js((limit) => [...document.links].slice(0, limit).map((a) => a.href), { arg: 5 });',
  },
  {
    name: 'browser.uploadFile',
    group: 'Browser control',
    signature: 'uploadFile(target: string | { backendNodeId: number } | { label } | { role, name? } | { text }, pathOrPaths: string | string[], options?: { timeoutSec?: number }): Promise<void>',
    description:
      'Sets the files of an <input type=file> (Chromium fires input and change). target is a CSS selector, an accessibility-snapshot node (a file input reads role "file input", fileInput: true), or a semantic target as click takes it: { label, exact? } (the file input a <label>, aria-labelledby or aria-label names), { role, name?, exact? } (a file input\'s role is "button", or "file input" as the snapshot prints it), { text, exact? } (a label\'s text stands for its control). Selectors and semantic targets are searched in the document, open shadow roots and same-origin iframes, and wait up to timeoutSec (default 10) to match; they must match a file input (hidden ones are fine: styled uploads hide the input behind a label), and if several match, exactly one of them must be visible. Several files need the multiple attribute. Paths are resolved to absolute paths and, when the browser runs on this machine, must exist.',
    example: 'await uploadFile("input[type=file]", "/tmp/report.pdf");\nawait uploadFile({ label: "Passport scan" }, "/tmp/passport.pdf");',
  },
  {
    name: 'browser.waitForDownload',
    group: 'Browser control',
    signature: 'waitForDownload(action: () => Promise<unknown>, options?: { timeoutSec?: number, dir?: string }): Promise<{ path, suggestedFilename, url, bytes }>',
    description:
      'Runs action, waits for the download it starts on the attached tab (a link with download, a Content-Disposition: attachment answer, a form that returns a file) and resolves where the file was saved once Chromium finished it. Files go to this REPL\'s own download folder (in the host\'s temporary folder, removed when the host closes; never $HOME/Downloads), or to dir when given, under the suggested name (name (1).ext when it is taken). The action\'s rejection rejects it; a canceled download, no download within timeoutSec (default 30, clamped to 500 ms before the cell deadline) or a file that cannot be saved throw REPL_ERR_DOWNLOAD_FAILED. A download nobody waits for is saved to the REPL\'s folder as well, with a note on stderr (see listDownloads). It sets the host\'s download behaviour again first, so it also works after a cell sent its own Browser.setDownloadBehavior.',
    example: 'const file = await waitForDownload(() => click("#export"));\nrepl.write(`${file.suggestedFilename}: ${file.bytes} bytes at ${file.path}`);',
  },
  {
    name: 'browser.listDownloads',
    group: 'Browser control',
    signature: 'listDownloads(): Promise<Array<{ path, suggestedFilename, url, bytes }>>',
    description:
      'Lists the files in this REPL\'s download folder, oldest first: the ones waitForDownload saved there and the downloads nobody waited for. url is "" for a file saved by an earlier worker of this REPL (after a reset).',
    example: 'for (const file of await listDownloads()) repl.write(`${file.path} ${file.bytes}\\n`);',
  },
  {
    name: 'browser.handleDialog',
    group: 'Browser control',
    signature: 'handleDialog(options?: { accept?: boolean, promptText?: string }): Promise<{ type, message }>',
    description:
      'Answers the JavaScript dialog (alert, confirm, prompt, beforeunload) open on the attached page: accept (default true) or dismiss (accept: false); promptText is the answer to a prompt. Resolves the dialog\'s type and message. With no dialog open it throws REPL_ERR_NO_DIALOG. A dialog belongs to the REPL whose tab opened it: no other REPL or executor answers it or is blocked by it.',
    example: 'await click("#book");\nif ((await pageInfo()).dialog) await handleDialog({ accept: true });',
  },
  {
    name: 'browser.onDialog',
    group: 'Browser control',
    signature: 'onDialog(policy: "accept" | "dismiss" | { accept: boolean, promptText?: string } | null): Promise<{ accept, promptText? } | null>',
    description:
      'Sets how this REPL answers the JavaScript dialogs its tab opens from now on, as they open, each with a note on stderr; resolves the previous policy. It applies before the promise resolves. null (the default) leaves them pending for the next cell to see in pageInfo().dialog and answer with handleDialog. A dialog already open is not answered by it. The policy lasts as long as the REPL (a reset starts with null).',
    example: 'await onDialog("accept");\nawait click("#delete"); // the confirm() is accepted as it opens',
  },
  {
    name: 'browser.httpGet',
    group: 'Browser control',
    signature: 'httpGet(url: string, headers?: Record<string, string>, timeoutSec?: number): Promise<string>',
    description:
      'GETs an http(s) URL from the REPL process (not the browser: no browser cookies) and resolves the body as UTF-8 text. Sends user-agent Mozilla/5.0 and accept-encoding gzip, deflate, br unless headers override them; follows up to 20 redirects; decodes compressed bodies. timeoutSec (default 20) covers the whole exchange including the body and is clamped to 500 ms before the cell deadline. Throws REPL_ERR_HTTP_GET_FAILED: "GET <url> failed with status <n>" for non-2xx, "GET <url> timed out after <n>ms", or when the body exceeds 32 MiB.',
    example: 'const robots = await httpGet("https://example.com/robots.txt");\nrepl.write(robots.slice(0, 200));',
  },
];
