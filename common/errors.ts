/**
 * The one error registry. Every failure that crosses a module, thread or HTTP boundary carries a
 * stable `code` from this table. Callers match on `err.code`, never on `instanceof`: errors that
 * crossed a worker boundary are rebuilt here from their code (see `fromSerialized`).
 *
 * A code either has an HTTP status (4xx or 5xx) with which it ends a request, or none (`status:
 * null`): such a code is reported inside a 200 answer, as a cell's or a tool's result.
 *
 * Retired codes MUST NOT be reused. `docs/errors.md` and `openapi.json` list exactly these codes;
 * `test/unit/error-registry.test.mjs` keeps the three in sync.
 */

/**
 * The statuses an error may end an HTTP request with: 4xx and 5xx only (499 is the de-facto
 * "client closed request"). A union of literals rather than `number`, so the compiler refuses a 2xx
 * or 3xx in the registry.
 */
export type HttpErrorStatus = 400 | 401 | 403 | 404 | 408 | 409 | 413 | 429 | 431 | 499 | 500 | 502 | 503 | 504 | 507;

export interface ErrorDefinition {
  /**
   * HTTP status when this error ends a request, or `null` for a code that has none: it is reported
   * inside a 200 answer (a cell's result, a tool result, an event of a stream), never as the status
   * of one. Read it through {@link httpStatusOf} where an HTTP status is needed.
   */
  readonly status: HttpErrorStatus | null;
  /** One line: what happened. Shown in docs. */
  readonly meaning: string;
  /** One line: what the caller should do. Shown in docs. */
  readonly fix: string;
}

export const ERROR_CODES = {
  // --- request validation (HTTP) ---
  REPL_ERR_INVALID_REQUEST: { status: 400, meaning: 'The request body or a parameter failed validation; the message names the field.', fix: 'Correct the named field; see openapi.json for the schema.' },
  REPL_ERR_BODY_TOO_LARGE: { status: 413, meaning: 'The request body exceeds the route limit (8 MiB for /repl, 1 MiB for /repl/env and /process/exec, 64 MiB for /fs/write_file, 256 MiB of files for /fs/upload and /fs/upload_zip (files.uploadMaxMb) or more than 100 files (files.uploadMaxFiles), 64 KiB for the other /fs routes).', fix: 'Send less code per cell, or load large data from disk or the network inside the cell; split a large file, or fetch it with process/exec (curl, git).' },
  REPL_ERR_CODE_TOO_LARGE: { status: 400, meaning: 'The encoded cell request exceeds 8 MiB even though the body fit.', fix: 'Shorten the code; the running REPL is unaffected.' },
  REPL_ERR_UNAUTHORIZED: { status: 401, meaning: 'BROWSER_REPL_TOKEN is set and the request lacks the matching bearer token.', fix: 'Send `Authorization: Bearer <token>`.' },
  REPL_ERR_PERMISSION_DENIED: { status: 403, meaning: 'The operating system refused a file operation (EACCES, EPERM, or a read-only file system) for the user the server runs as.', fix: 'Pick a path that user may read or write, or change its permissions (for example chmod through /process/exec); the server never switches user.' },
  REPL_ERR_NOT_FOUND: { status: 404, meaning: 'No route or resource with that name.', fix: 'Check the path against openapi.json.' },
  REPL_ERR_BROWSER_LIMIT: { status: 429, meaning: 'The server already runs as many browsers as its limit allows (maxBrowsers, BROWSER_REPL_MAX_BROWSERS; the default follows the memory of the machine).', fix: 'Delete a browser (DELETE /browsers/{id}) or wait for an idle one to be reaped; raise the limit only if the machine has the memory.' },
  REPL_ERR_HOST_NOT_ALLOWED: { status: 403, meaning: 'The Host header names neither a loopback address nor an allowed host (DNS-rebinding protection of a server that listens on loopback), or is missing.', fix: 'Reach the server as 127.0.0.1, [::1] or localhost, or add the name you use to the allowed hosts (--allowed-hosts, BROWSER_REPL_ALLOWED_HOSTS).' },
  REPL_ERR_ORIGIN_NOT_ALLOWED: { status: 403, meaning: 'A web page of another origin sent the request (Origin or Sec-Fetch-Site says cross-site); cross-origin requests are refused unless that origin is allowed.', fix: 'Call the server from a program rather than a web page, or allow that origin (--allowed-origins, BROWSER_REPL_ALLOWED_ORIGINS).' },
  REPL_ERR_HEADERS_TOO_LARGE: { status: 431, meaning: 'The request line and headers exceed the server\'s limit (16 KiB by default, Node\'s --max-http-header-size).', fix: 'Send fewer or shorter headers (cookies, long URLs); put data in the body.' },
  REPL_ERR_REQUEST_TIMEOUT: { status: 408, meaning: 'The client sent the request headers or body too slowly and the server stopped waiting.', fix: 'Send the whole request promptly; check the network between client and server.' },
  REPL_ERR_POOL_QUEUE_FULL: { status: 429, meaning: 'Too many callers already wait in a browser pool\'s acquire line (the line is bounded so that waiting callers cannot pile up without end).', fix: 'Retry later with backoff, release browsers you hold, or make the pool larger (PATCH /browser_pools/{id} size).' },
  REPL_ERR_POOL_IN_USE: { status: 409, meaning: 'The browser pool still has acquired browsers, so it was not deleted.', fix: 'Release them first (POST /browser_pools/{id}/release), or delete with force: true to end them.' },
  REPL_ERR_CONFLICT: { status: 409, meaning: 'The resource limit was reached (for example the maximum number of named executors).', fix: 'Delete an existing resource first; the message lists them.' },
  // --- REPL host lifecycle ---
  REPL_ERR_INTERNAL: { status: 500, meaning: 'An unexpected failure inside the server (a bug).', fix: 'Report it with the request that caused it; the server keeps running.' },
  REPL_ERR_START_FAILED: { status: 500, meaning: 'The REPL worker could not start.', fix: 'Read the cause in the message; check the heap cap and the installation.' },
  REPL_ERR_PEER_UNAVAILABLE: { status: 502, meaning: 'The browser\'s id names another server (pod), and that server could not be reached: it may have ended, and its browsers with it.', fix: 'Create a new browser; if the server is only restarting, retry in a moment. Check BROWSER_REPL_PEER_URL or BROWSER_REPL_PEERS when every forward fails.' },
  REPL_ERR_CAPACITY_QUEUE_FULL: { status: 429, meaning: 'No server had room for a browser, and the create could not wait: the server\'s create queue is full, or waiting is off (--create-wait-seconds 0, or the request\'s wait_timeout_seconds / x-wait-timeout is 0). The answer carries Retry-After.', fix: 'Retry after Retry-After seconds (the SDK does, x-should-retry: true); raise --create-queue, or add servers.' },
  REPL_ERR_CAPACITY_WAIT_TIMEOUT: { status: 429, meaning: 'The create waited in the queue for as long as it might (the server\'s --create-wait-seconds, or the shorter wait the request asked for) and no room appeared. The answer carries Retry-After.', fix: 'Retry after Retry-After seconds, wait longer (wait_timeout_seconds), delete browsers no longer needed, or add servers.' },
  REPL_ERR_DRAINING: { status: 503, meaning: 'The server is draining (shutting down gracefully, after SIGTERM): it takes no new browsers, while the ones it runs keep working until it stops.', fix: 'Create the browser on another server (through the Service, a load balancer retries another pod); /readyz of this one answers 503 meanwhile.' },
  REPL_ERR_CLOSED: { status: 503, meaning: 'The REPL or server is closing or closed and accepts no new work.', fix: 'Create a new REPL, or retry once the server is back.' },
  REPL_ERR_ABORTED: { status: 499, meaning: 'The caller aborted the operation (AbortSignal or client disconnect).', fix: 'None needed; if the cell had started, the REPL was replaced.' },
  REPL_ERR_CELL_TIMEOUT: { status: null, meaning: 'The cell ran past timeout_sec. It was interrupted and the REPL kept (interrupted: true), or, when no interrupt check reached it in time, the REPL was destroyed (repl_terminated: true).', fix: 'Raise timeout_sec, or split the work. After interrupted: true the bindings are there (those the cell had not initialised stay uninitialised); after repl_terminated: true the next call gets a fresh REPL: re-create them.' },
  REPL_ERR_WORKER_CRASHED: { status: null, meaning: 'The REPL worker exited during a cell (crash, process.exit, uncaught exception).', fix: 'The next call gets a fresh REPL; re-create its bindings.' },
  REPL_ERR_OUT_OF_MEMORY: { status: null, meaning: 'The cell exceeded a memory cap of its worker, the V8 heap cap or the cap on memory outside the heap (Buffers, ArrayBuffers); the worker was terminated.', fix: 'Raise heapMb (BROWSER_REPL_HEAP_MB) or BROWSER_REPL_EXTERNAL_MEMORY_MB (default 1024 MiB), or process data in smaller pieces.' },
  REPL_ERR_PROTOCOL: { status: null, meaning: 'The worker sent a message that breaks the host protocol; the REPL was destroyed.', fix: 'Report a bug with the cell that caused it.' },
  // --- inside a cell (thrown to user code, reported as the cell error) ---
  REPL_ERR_CELL_SYNTAX: { status: null, meaning: 'The cell does not parse, or uses static import/export or top-level return.', fix: 'Fix the syntax; use dynamic import() instead of static imports.' },
  REPL_ERR_BINDING: { status: null, meaning: 'A top-level declaration conflicts with an earlier one (redeclaration rules).', fix: 'Use a new name, wrap the cell in { … } (a block scopes its let, const and class, so it can be re-run), or reset the REPL.' },
  REPL_ERR_OUTPUT_LIMIT: { status: null, meaning: 'An output call was rejected by a size limit (for example an image above 8 MiB).', fix: 'Emit smaller images (captureScreenshot maxDim) or less text.' },
  REPL_ERR_INVALID_ARGUMENT: { status: null, meaning: 'A helper was called with an invalid argument or option.', fix: 'Read repl.help("<helper>") for the signature.' },
  REPL_ERR_CELL_INTERRUPTED: { status: null, meaning: 'The cell was interrupted on request (POST /repl/interrupt, repl.interrupt(), Ctrl-C in the CLI): the answer says interrupted: true with the REPL and its bindings kept, or repl_terminated: true when no interrupt check reached it in time. Also what an interrupt check throws into cell code (at a timeout too, whose answer says REPL_ERR_CELL_TIMEOUT); the next check throws it again, so catching it only delays the stop.', fix: 'Nothing to handle: let it propagate. After interrupted: true the bindings are there (those the cell had not initialised stay uninitialised); after repl_terminated: true re-create them.' },
  // --- browser and CDP ---
  REPL_ERR_BROWSER_NOT_FOUND: { status: 500, meaning: 'No Chromium executable was found and no CDP_ENDPOINT was given.', fix: 'Install one (`npx chromium-repl install-browser`), or set BROWSER_REPL_CHROME / CHROME_PATH / CDP_ENDPOINT.' },
  REPL_ERR_BROWSER_LAUNCH_FAILED: { status: 500, meaning: 'Chromium was found but did not start or did not expose a DevTools endpoint.', fix: 'Read the captured browser output in the message; check sandbox flags.' },
  REPL_ERR_CDP_CONNECT_FAILED: { status: null, meaning: 'The DevTools WebSocket could not be opened.', fix: 'Check CDP_ENDPOINT and that the browser is running.' },
  REPL_ERR_CDP_COMMAND_FAILED: { status: null, meaning: 'Chromium answered a CDP command with an error.', fix: 'Read the CDP message; check the method name and parameters.' },
  REPL_ERR_CDP_TIMEOUT: { status: null, meaning: 'A CDP command got no answer before its deadline.', fix: 'A modal dialog or a busy page may block the renderer; see the hint in the message.' },
  REPL_ERR_CDP_DEADLINE_REACHED: { status: null, meaning: 'A CDP command could not start because the cell deadline had been reached.', fix: 'Raise timeout_sec.' },
  REPL_ERR_CDP_DISCONNECTED: { status: null, meaning: 'The CDP connection closed while a command was pending.', fix: 'Retry; the next helper call reconnects.' },
  REPL_ERR_CDP_OUTCOME_UNKNOWN: { status: null, meaning: 'The connection closed before a non-idempotent command answered; it was not retried.', fix: 'Check the page state before repeating the action.' },
  REPL_ERR_TARGET_NOT_FOUND: { status: null, meaning: 'A tab, frame or element target does not exist (any more).', fix: 'List tabs again, or take a new accessibility snapshot.' },
  REPL_ERR_PAGE_EVALUATION: { status: null, meaning: 'JavaScript evaluated in the page threw.', fix: 'Read the page exception in the message.' },
  REPL_ERR_ACTION_FAILED: { status: null, meaning: 'An element never became actionable (visible, enabled, stable, unobscured) in time.', fix: 'Read which check failed in the message; wait for the page or use a more specific selector.' },
  REPL_ERR_LOAD_TIMEOUT: { status: null, meaning: 'gotoUrl with waitUntil "domcontentloaded" or "load" saw the navigation commit, but the new document did not reach that state within timeoutSec.', fix: 'Raise timeoutSec (and timeout_sec), or wait for what the cell needs with waitForElement; the page may still be loading a slow resource.' },
  REPL_ERR_DIALOG_OPEN: { status: null, meaning: 'A JavaScript dialog blocks the page.', fix: 'Handle it with handleDialog({ accept: true }) (or { accept: false }; promptText for a prompt), or answer later dialogs automatically with onDialog("accept").' },
  REPL_ERR_NO_DIALOG: { status: null, meaning: 'handleDialog found no JavaScript dialog open on the attached page.', fix: 'Check pageInfo().dialog first; a dialog of another tab is handled after switchTab to it.' },
  REPL_ERR_DOWNLOAD_FAILED: { status: null, meaning: 'waitForDownload saw no download finish: none started within timeoutSec, it was canceled, or its file could not be saved.', fix: 'Make sure the action starts a download (a link with download or Content-Disposition: attachment), raise timeoutSec, or check the folder given as dir.' },
  REPL_ERR_HTTP_GET_FAILED: { status: null, meaning: 'httpGet got a non-2xx status, a network error, or exceeded its size or time bound.', fix: 'Check the URL; raise timeoutSec.' },
  // --- agent tools (lib/tools, MCP) ---
  REPL_ERR_STALE_REF: { status: 409, meaning: 'An agent tool got a ref that is not in the session\'s latest snapshot, or whose element left the page.', fix: 'Take a new snapshot (browser_snapshot) and use a ref from it; refs of an element stay the same while its document lives.' },
  REPL_ERR_URL_NOT_ALLOWED: { status: 400, meaning: 'browser_open refused the URL: only http: and https: are opened, and the allowed and blocked origin lists apply.', fix: 'Use an http(s) URL of an allowed origin; file:, data:, javascript: and browser-internal URLs are never opened.' },
  REPL_ERR_OPEN_NOT_APPROVED: { status: 403, meaning: 'browser_open needs approval (permission "ask") and it was declined, or nobody could be asked, or permission is "deny".', fix: 'Approve the navigation when asked, or configure permission "allow" (BROWSER_REPL_TOOLS_PERMISSION=allow, --permission allow).' },
  REPL_ERR_PATH_OUTSIDE_WORKSPACE: { status: 400, meaning: 'A screenshot, upload or resource path resolves outside the session\'s workspace.', fix: 'Give a path relative to the workspace (for example screenshots/page.png) without .. segments or links leading out.' },
  // --- WebMCP (lib/webmcp) ---
  REPL_ERR_WEBMCP_NO_TABS: { status: 404, meaning: 'webmcp.listTools found no tab at all in the browser (or in the session asked about).', fix: 'Open a page first (goto, browser_open); page tools are declared by pages.' },
  REPL_ERR_WEBMCP_TOOL_NOT_FOUND: { status: 404, meaning: 'The tool_ref names no live page tool: the tool was unregistered, or its frame navigated, was removed, or its tab closed.', fix: 'List the tools again (webmcp.listTools, GET /webmcp/tools) and use a ref from the new listing.' },
  REPL_ERR_WEBMCP_OUTCOME_UNKNOWN: { status: 504, meaning: 'A page tool was invoked but its result could not be observed: the timeout passed, the cell ended, or its frame navigated or went away. The tool may or may not have run.', fix: 'Do not retry automatically: look at the page (or list the tools) to learn what happened, then decide.' },
  // --- hand-over to a person (lib/live-view/hand-over.ts) ---
  REPL_ERR_HUMAN_TIMEOUT: { status: null, meaning: 'requestHuman (or browser_request_human) waited its timeout_sec and no interactive viewer of the live view pressed Done.', fix: 'Make sure a person has the browser_live_view_url open (show it to them before asking), then ask again, with a longer timeoutSec if they need it.' },
  // --- Playwright executors ---
  REPL_ERR_EXECUTOR_START_FAILED: { status: 500, meaning: 'A Playwright executor could not be set up: its worker did not start, or its tab could not be opened.', fix: 'Read the cause in the message; the next call tries again. A named executor that never started takes no slot.' },
  REPL_ERR_EXECUTOR_TAB_CLOSE_FAILED: { status: 500, meaning: 'The executor was deleted, but closing its tab failed.', fix: 'The name is free again; close the tab yourself if it is still open (its target id is in the message).' },
  // --- spawned processes (process/spawn, docs/process-and-files.md) ---
  REPL_ERR_PROCESS_NOT_FOUND: { status: 404, meaning: 'The process_id names no process spawned in this browser (never spawned here, or its record was dropped: a while after it exited, or with its browser).', fix: 'Use the process_id that POST /process/spawn answered, with the same browser; read the status soon after the exit.' },
  REPL_ERR_PROCESS_LIMIT: { status: 429, meaning: 'The browser, or the server, already runs as many spawned processes as the limits allow (processes.maxPerBrowser, processes.maxTotal; BROWSER_REPL_PROCESSES_MAX_PER_BROWSER, BROWSER_REPL_PROCESSES_MAX_TOTAL), or the process has not read the 4 MiB already written to its stdin.', fix: 'Kill a process you no longer need (POST /process/{process_id}/kill) or wait for one to exit; for stdin, let the process read first.' },
  REPL_ERR_PROCESS_EXITED: { status: 409, meaning: 'The process has exited: its stdin is closed, its terminal gone, and no signal can reach it.', fix: 'Read its exit code (GET /process/{process_id}/status) or its output (GET /process/{process_id}/stdout/stream); spawn it again if needed.' },
  // --- curl through the browser (docs/curl.md) ---
  REPL_ERR_CURL_FAILED: { status: 502, meaning: 'POST /browsers/{id}/curl (or {base_url}/curl/raw) reached no answer: the browser could not load the URL (DNS, connection refused, TLS, proxy), or the browser closed the request\'s tab.', fix: 'Check the URL from the browser (open it in a cell with gotoUrl); the message has the browser\'s network error.' },
  REPL_ERR_CURL_TIMEOUT: { status: 504, meaning: 'The curl request had no complete answer within its timeout_ms (default 30000).', fix: 'Raise timeout_ms (at most 300000), or check that the target answers.' },
  REPL_ERR_CURL_TOO_LARGE: { status: 502, meaning: 'The response body of POST /browsers/{id}/curl is larger than the 10 MiB the JSON answer carries.', fix: 'Stream it instead: client.browsers.fetch(id, url), or GET {base_url}/curl/raw?url=…, has no such limit.' },
  // --- file transfers and watches (docs/process-and-files.md) ---
  REPL_ERR_ZIP_UNSAFE_ENTRY: { status: 400, meaning: 'upload_zip refused the zip: an entry would land outside dest_path (an absolute name, a .. segment, a backslash, or a symbolic link on its way), is a symbolic link or a special file, or appears twice. Nothing was extracted.', fix: 'Build the zip with relative names of files and directories only (zip -r from inside the folder); put links in place afterwards (process/exec ln -s).' },
  REPL_ERR_ZIP_TOO_LARGE: { status: 413, meaning: 'The zip has more entries, inflates to more bytes, or compresses an entry further than the limits allow (files.zipMaxEntries, files.zipMaxMb, files.zipMaxRatio; BROWSER_REPL_ZIP_MAX_ENTRIES, BROWSER_REPL_ZIP_MAX_MB, BROWSER_REPL_ZIP_MAX_RATIO), or a directory to download has more entries than files.zipMaxEntries. The real inflated bytes count, not the headers; nothing was extracted.', fix: 'Split the archive, or raise the limit if the disk has room; for a download, zip a smaller directory.' },
  REPL_ERR_WATCH_LIMIT: { status: 409, meaning: 'The server already runs as many directory watches as allowed (files.maxWatches, BROWSER_REPL_MAX_WATCHES), a recursive watch would cover more directories than files.maxWatchDirectories, or the system\'s inotify limit is reached.', fix: 'Stop a watch you no longer read (DELETE /fs/watch/{watch_id}), watch a smaller tree or with recursive: false, or raise the limit.' },
  // --- recordings (replays, docs/recordings.md) ---
  REPL_ERR_REPLAY_NOT_FOUND: { status: 404, meaning: 'The replay_id names no recording of this browser (never started here, or deleted with its browser after the retention time).', fix: 'List the browser\'s recordings (GET /browsers/{id}/replays) and use a replay_id from there.' },
  // --- profiles (docs/browsers.md#profiles) ---
  REPL_ERR_PROFILE_NOT_FOUND: { status: 404, meaning: 'No stored profile has that id or name (never created, or deleted); `data.profile` is what was asked for.', fix: 'List the profiles (GET /profiles) and use an id or name from there, or create it first (POST /profiles).' },
  REPL_ERR_PROFILE_NAME_TAKEN: { status: 409, meaning: 'Another profile already has that name (names are compared without case); `data.id` is its id.', fix: 'Use that profile, pick another name, or delete the other one first.' },
  REPL_ERR_PROFILE_KEY: { status: 500, meaning: 'A stored profile is encrypted and cannot be opened: this server has no profile key, or another one, or a file of it was altered.', fix: 'Start the server with the key the profile was saved with (BROWSER_REPL_PROFILE_KEY); a profile whose key is lost cannot be recovered: delete it and sign in again.' },
  REPL_ERR_PROFILE_FORMAT_UNSUPPORTED: { status: 400, meaning: 'The download format asked for is not one this server can produce: tar.zst needs a Node.js with zstd in node:zlib (22.15 or later).', fix: 'Ask for format=tar, or run the server on a newer Node.js.' },
  REPL_ERR_REPLAY_LIMIT: { status: 409, meaning: 'The browser already runs as many recordings at once, or keeps as many, as the limits allow (recordings.maxActivePerBrowser, recordings.maxPerBrowser; BROWSER_REPL_RECORDINGS_MAX_ACTIVE, BROWSER_REPL_RECORDINGS_MAX_PER_BROWSER).', fix: 'Stop a running recording (POST /browsers/{id}/replays/{replay_id}/stop); kept recordings go with their browser (DELETE /browsers/{id}), or raise the limit.' },
  REPL_ERR_REPLAY_STORAGE_FULL: { status: 507, meaning: 'The recordings of this server fill the disk space allowed to them (recordings.maxTotalMb, BROWSER_REPL_RECORDINGS_MAX_MB); a running recording that reaches it is stopped and kept.', fix: 'Delete browsers whose recordings you no longer need, shorten the retention time, or raise the limit if the disk has room.' },
  REPL_ERR_REPLAY_NOT_READY: { status: 409, meaning: 'The recording is still running or still being encoded: its MP4 exists once it was stopped.', fix: 'Stop it (POST /browsers/{id}/replays/{replay_id}/stop, which answers once the file is written), then download it.' },
  REPL_ERR_PROXY_NOT_FOUND: { status: 404, meaning: 'No proxy of this server has that id (never created here, or deleted); the message names the field that gave it (id, proxy_id).', fix: 'List the proxies (GET /proxies) and use an id from there, or create one (POST /proxies with type "custom").' },
  REPL_ERR_PROXY_TYPE_UNSUPPORTED: { status: 400, meaning: 'The proxy type (datacenter, isp, residential, mobile) needs the hosted product\'s proxy network, which this server does not have.', fix: 'Create a type "custom" proxy with config.host and config.port (and username/password) of a proxy you run or rent (docs/browsers.md#proxies).' },
  REPL_ERR_REPLAY_FAILED: { status: 500, meaning: 'ffmpeg could not encode the recording (the message quotes its last error lines); there is no video.', fix: 'Read the ffmpeg error; check the disk and the ffmpeg installation, then record again.' },
  REPL_ERR_FFMPEG_NOT_FOUND: { status: 500, meaning: 'Recording needs ffmpeg, and none was found (BROWSER_REPL_FFMPEG, then ffmpeg on PATH, /usr/bin/ffmpeg).', fix: 'Install it (`npm run install-browser -- --ffmpeg`, or `apt-get install -y ffmpeg` on Debian), or point BROWSER_REPL_FFMPEG at an ffmpeg executable.' },
  // --- extensions (docs/browsers.md#extensions) ---
  REPL_ERR_EXTENSION_NOT_FOUND: { status: 404, meaning: 'No uploaded extension has that id or name (never uploaded here, or deleted).', fix: 'List the extensions (GET /extensions) and use an id or name from there, or upload it first (POST /extensions).' },
  REPL_ERR_EXTENSION_INVALID: { status: 400, meaning: 'The zip is not an unpacked Chromium extension: it has no manifest.json (at its top, or in its one top-level folder), or the manifest is not JSON or lacks a valid manifest_version (3 or 2), name or version; or Chromium refused to load it, or a create names a Manifest V2 extension (Chromium loads only V3). The message names the field; nothing was stored.', fix: 'Zip the folder that holds manifest.json (zip -r ext.zip . from inside it) and check the manifest\'s manifest_version, name and version.' },
  REPL_ERR_EXTENSION_NAME_TAKEN: { status: 409, meaning: 'Another uploaded extension already has that name; names are unique on a server.', fix: 'Pick another name, or delete the other extension first (DELETE /extensions/{id_or_name}).' },
  REPL_ERR_EXTENSION_STORE_OFFLINE: { status: 400, meaning: 'Downloading from the Chrome Web Store needs the internet, and this server runs offline: it never fetches from the store.', fix: 'Download and unpack the extension on a machine with internet access, zip the unpacked folder, and upload it (POST /extensions).' },
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Base class of every error this package throws. Match on `code`. */
export class ReplError extends Error {
  readonly code: ErrorCode;
  readonly data: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: { cause?: unknown; data?: Record<string, unknown> } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ReplError';
    this.code = code;
    this.data = options.data;
  }

  /**
   * The registry's HTTP status of this code, or `null` when the code is reported inside a 200
   * answer (see {@link ErrorDefinition.status}). To answer a request, use {@link httpStatusOf}.
   */
  get status(): HttpErrorStatus | null {
    return ERROR_CODES[this.code].status;
  }
}

/**
 * The HTTP status with which an error of `code` ends a request. A code without an HTTP status
 * (one reported inside a cell or tool result) that still reached the edge of a request is a
 * failure of the server, not a success: it answers 500, so an error body never comes with a 2xx.
 */
export function httpStatusOf(code: ErrorCode): HttpErrorStatus {
  return ERROR_CODES[code].status ?? 500;
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}

/** Plain shape in which errors cross a thread boundary (structured clone drops `code` and subclasses). */
export interface SerializedError {
  name: string;
  message: string;
  code?: string;
  stack?: string;
  data?: Record<string, unknown>;
}

/**
 * The plain shape of any thrown value, for `postMessage` (structured clone would drop `code`, `data`
 * and the subclass name). Never throws, even for values with hostile getters.
 */
export function toSerialized(error: unknown): SerializedError {
  const read = (key: string): unknown => {
    try {
      return (error as Record<string, unknown>)[key];
    } catch {
      return undefined;
    }
  };
  if (error === null || (typeof error !== 'object' && typeof error !== 'function')) {
    return { name: 'Error', message: safeString(error) };
  }
  const name = read('name');
  const message = read('message');
  const code = read('code');
  const stack = read('stack');
  const data = error instanceof ReplError ? error.data : undefined;
  const serialized: SerializedError = {
    name: typeof name === 'string' ? name : 'Error',
    message: typeof message === 'string' ? message : safeString(error),
  };
  if (typeof code === 'string') serialized.code = code;
  if (typeof stack === 'string') serialized.stack = stack;
  if (data !== undefined) serialized.data = data;
  return serialized;
}

function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** Rebuilds a registry error from a serialized one; unknown codes become REPL_ERR_PROTOCOL. */
export function fromSerialized(serialized: SerializedError): ReplError {
  const code = isErrorCode(serialized.code) ? serialized.code : 'REPL_ERR_PROTOCOL';
  const error = new ReplError(code, serialized.message, serialized.data === undefined ? {} : { data: serialized.data });
  if (serialized.stack !== undefined) error.stack = serialized.stack;
  return error;
}
