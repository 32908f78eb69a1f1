// The wording of the agent tools' failures and effects (lib/tools/tool-wording.ts, lib/tools/render.ts;
// issue 25): every branch of toolError, in the tools' terms (tool names, refs as snapshots show
// them, the next step), never the helpers', CDP's or backend node ids; the cover with its
// controls; what an action set off; the overlay line of a snapshot.
import t from 'tap';
import { describeCover, describeRef, speaksInternals, TOOL_OF, toolError } from '../../dist/lib/tools/tool-wording.js';
import { renderEffects, renderOverlay, renderSnapshot } from '../../dist/lib/tools/render.js';

const click = { op: 'click', ref: 28, doubleClick: false, timeoutMs: 30_000, settleMs: 250, coveredMs: 2_000 };
const type = { op: 'type', ref: 28, text: 'Ada', submit: false, timeoutMs: 30_000, settleMs: 250, coveredMs: 2_000 };
const field = { ref: 28, tag: 'input', type: 'search', label: 'Search orders' };
const button = { ref: 3, tag: 'button', label: 'Accept all' };
const link = { ref: 4, tag: 'a', label: 'Preferences' };

const word = (failure, context) => {
  const error = toolError(failure, context);
  t.notOk(speaksInternals(error.message), `no internals in: ${error.message}`);
  return error;
};

t.test('describeRef and describeCover read like the snapshot', async (t) => {
  t.equal(describeRef(field), '[28] input:search "Search orders"');
  t.equal(describeRef({ ref: 7, tag: 'div', role: 'button', label: '' }), '[7] button');
  t.equal(describeRef({ ref: 9, tag: 'a', label: 'x'.repeat(80) }), `[9] link "${'x'.repeat(59)}…"`);
  t.equal(describeCover({ description: '<div id="cookie-banner">', label: 'We use cookies', controls: [button, link] }),
    '<div id="cookie-banner"> "We use cookies"; dismiss it first with browser_click on one of [3] button "Accept all", [4] link "Preferences"');
  t.equal(describeCover({ description: '<div id="x">', label: '', controls: [button] }), '<div id="x">; dismiss it first with browser_click on [3] button "Accept all"');
  t.match(describeCover({ description: '<div>', label: '', controls: [] }), /no control to dismiss it \(try browser_press_key "Escape"/);
});

t.test('toolError: covers, misses, states, dialogs, stale refs', async (t) => {
  const fillMessage = 'fillInput: backend node 28 was not editable within 30s (intercepted by <div id="cookie-banner">)';
  const cover = { description: '<div id="cookie-banner">', label: 'We use cookies', controls: [button, link] };
  let error = word({ code: 'REPL_ERR_ACTION_FAILED', message: fillMessage, data: { status: 'intercepted by <div id="cookie-banner">', covered: true } }, { operation: type, target: field, cover });
  t.equal(error.code, 'REPL_ERR_ACTION_FAILED', 'the code is kept');
  t.equal(error.message, 'browser_type: [28] input:search "Search orders" cannot be typed into: it is covered by <div id="cookie-banner"> "We use cookies"; dismiss it first with browser_click on one of [3] button "Accept all", [4] link "Preferences"');
  t.equal(error.cause.message, fillMessage, 'the helper\'s error is the cause');
  error = word({ code: 'REPL_ERR_ACTION_FAILED', message: 'x', data: { status: 'intercepted by <div class="toast">' } }, { operation: click, target: button });
  t.equal(error.message, 'browser_click: [3] button "Accept all" cannot be clicked: it is covered by <div class="toast">', 'a cover without its lookup');
  error = word({ code: 'REPL_ERR_ACTION_FAILED', message: 'x', data: { status: 'missed', hit: '<div id="toast">' } }, { operation: click, target: button });
  t.match(error.message, /^browser_click: the click on \[3\] button "Accept all" landed on <div id="toast"> instead .*take a new snapshot \(browser_snapshot\)/);
  error = word({ code: 'REPL_ERR_ACTION_FAILED', message: 'x', data: { status: 'unreached' } }, { operation: click, target: button });
  t.match(error.message, /did not reach it \(no pointer event arrived in its frame\), so nothing was clicked/);
  for (const [status, reason] of [['disabled', 'it stayed disabled'], ['not visible', 'it stayed not visible'], ['moving', 'it kept moving (an animation)'],
    ['not found', 'it is not on the page any more'], ['outside viewport', 'it could not be scrolled into view']]) {
    error = word({ code: 'REPL_ERR_ACTION_FAILED', message: 'click: backend node 3 …', data: { status } }, { operation: click, target: button, timeoutMs: 30_000 });
    t.equal(error.message, `browser_click: [3] button "Accept all" could not be clicked within 30 s: ${reason}`, status);
  }
  error = word({ code: 'REPL_ERR_ACTION_FAILED', message: 'fillInput: focus moved from backend node 28 to <input> while typing' }, { operation: type, target: field });
  t.match(error.message, /the focus left \[28\] .* while typing/);
  error = word({ code: 'REPL_ERR_DIALOG_OPEN', message: 'click: … handleDialog({ accept: true }) or cdp("Page.handleJavaScriptDialog" …)', data: { dialog: { type: 'confirm', message: 'Cancel order 1022?' } } }, { operation: click, target: button });
  t.equal(error.message, 'browser_click: a confirm dialog ("Cancel order 1022?") holds the page; answer it with browser_handle_dialog (accept: true or false), then try again');
  error = word({ code: 'REPL_ERR_TARGET_NOT_FOUND', message: 'click: backend node 3 is stale: it is no longer in the document; take a new accessibilitySnapshot()' }, { operation: click, target: button });
  t.equal(error.code, 'REPL_ERR_STALE_REF', 'a node gone from the document is a stale ref for the tools');
  t.match(error.message, /^browser_click: ref 3 is stale: it left the page/);
  error = word({ code: 'REPL_ERR_STALE_REF', message: 'ref 3 is stale: it is not in the latest snapshot; take a new snapshot (browser_snapshot) and use a ref from it' }, { operation: click, target: button });
  t.equal(error.message, 'browser_click: ref 3 is stale: it is not in the latest snapshot; take a new snapshot (browser_snapshot) and use a ref from it');
});

t.test('toolError: the other codes, and a message that speaks of internals never passes', async (t) => {
  const upload = { op: 'upload', ref: 28, paths: ['/w/a.txt'], timeoutMs: 30_000, settleMs: 0 };
  t.match(word({ code: 'REPL_ERR_INVALID_ARGUMENT', message: 'uploadFile: backend node 28 is a <input>, not an <input type=file>' }, { operation: upload, target: field }).message,
    /^browser_file_upload: \[28\] input:search "Search orders" is not a file input/);
  t.match(word({ code: 'REPL_ERR_INVALID_ARGUMENT', message: 'uploadFile: no such file: /w/a.txt' }, { operation: upload, target: field }).message, /the file \/w\/a\.txt does not exist/);
  t.match(word({ code: 'REPL_ERR_INVALID_ARGUMENT', message: 'uploadFile: the file input … accepts one file (no "multiple" attribute), got 2' }, { operation: upload, target: field }).message, /takes one file/);
  t.match(word({ code: 'REPL_ERR_INVALID_ARGUMENT', message: 'pressKey: unknown key: Hyper (use …)' }, { operation: { op: 'press', key: 'Hyper', timeoutMs: 1, settleMs: 0 } }).message, /^browser_press_key: unknown key "Hyper"/);
  t.match(word({ code: 'REPL_ERR_INVALID_ARGUMENT', message: 'fillInput: the date input rejected "x" (its value is ""); use the input\'s value format' }, { operation: type, target: field }).message, /rejected the text: .*give a value in the field's own format/);
  t.match(word({ code: 'REPL_ERR_NO_DIALOG', message: 'handleDialog: no JavaScript dialog is open on the attached page (pageInfo().dialog is null)' }, { operation: { op: 'dialog', accept: true, settleMs: 0 } }).message, /^browser_handle_dialog: no dialog is open on the page/);
  for (const code of ['REPL_ERR_CDP_TIMEOUT', 'REPL_ERR_CDP_DEADLINE_REACHED']) t.match(word({ code, message: 'Runtime.callFunctionOn timed out' }, { operation: click, target: button }).message, /did not answer in time while acting on \[3\]/, code);
  t.match(word({ code: 'REPL_ERR_CDP_OUTCOME_UNKNOWN', message: 'Input.dispatchMouseEvent: connection closed' }, { operation: click, target: button }).message, /may or may not have happened/);
  t.match(word({ code: 'REPL_ERR_CDP_DISCONNECTED', message: 'x' }, { operation: click }).message, /connection to the browser dropped; take a new snapshot/);
  t.match(word({ code: 'REPL_ERR_CDP_COMMAND_FAILED', message: 'DOM.resolveNode: No node with given id' }, { operation: click, target: button }).message, /the page refused the action on \[3\]/);
  t.match(word({ code: 'REPL_ERR_TARGET_NOT_FOUND', message: 'switchTab: attached target no longer exists' }, { operation: { op: 'select-tab', index: 1, settleMs: 0 } }).message, /^browser_tabs: the tab or frame it acted on is gone/);
  t.equal(word({ code: 'REPL_ERR_ACTION_FAILED', message: 'navigation to http://x/ failed: net::ERR_NAME_NOT_RESOLVED' }, { operation: { op: 'navigate', url: 'http://x/', timeoutMs: 1, settleMs: 0 } }).message,
    'browser_open: navigation to http://x/ failed: net::ERR_NAME_NOT_RESOLVED', 'a message of the tools\' own passes as it is');
  t.equal(word({ code: 'REPL_ERR_INTERNAL', message: 'waitForElement: something Runtime.evaluate said' }, { operation: { op: 'wait', text: 'a', timeoutMs: 1, settleMs: 0 } }).message,
    'browser_wait_for: the action failed (REPL_ERR_INTERNAL); take a new snapshot (browser_snapshot) and try again', 'one that speaks of internals does not');
  t.same(Object.keys(TOOL_OF).sort(), ['back', 'click', 'close-tab', 'dialog', 'downloads', 'navigate', 'press', 'read', 'screenshot', 'scroll', 'select', 'select-tab', 'trace', 'type', 'upload', 'wait'], 'every operation has its tool');
});

t.test('renderEffects: a popup, downloads, a dialog', async (t) => {
  const relative = (file) => file.replace('/w/', '');
  t.same(renderEffects({
    popups: [{ index: 1, title: 'Order 1022', url: 'http://127.0.0.1:1/orders/1022' }, { index: 2, title: '', url: 'http://127.0.0.1:1/help' }],
    downloads: [
      { suggestedFilename: 'invoice.csv', url: 'http://x/i.csv', state: 'completed', path: '/w/downloads/invoice.csv', bytes: 192 },
      { suggestedFilename: 'big.zip', url: 'http://x/big.zip', state: 'in progress' },
      { suggestedFilename: 'gone.pdf', url: 'http://x/g.pdf', state: 'canceled' },
    ],
    dialog: { type: 'confirm', message: 'Sure?' },
  }, relative), [
    'It opened a new tab, tab [1] "Order 1022" http://127.0.0.1:1/orders/1022, now the active tab: the snapshot below is of it (browser_tabs selects another).',
    'It also opened a new tab, tab [2] (untitled) http://127.0.0.1:1/help.',
    'Downloaded "invoice.csv": saved as downloads/invoice.csv (192 bytes); browser_downloads lists it.',
    'Download of "big.zip" started and is still running; browser_downloads lists it once it is done (it waits a little for running ones).',
    'The download of "gone.pdf" was canceled.',
    'It opened a confirm dialog "Sure?", which holds the page: answer it with browser_handle_dialog.',
  ]);
  t.same(renderEffects({}, relative), []);
});

t.test('the overlay line, and a snapshot that lists the cover\'s controls first', async (t) => {
  const overlay = { description: '<div id="cookie-banner">', label: 'We use cookies', refs: [3, 4] };
  t.equal(renderOverlay(overlay), 'Overlay: <div id="cookie-banner"> "We use cookies" covers the page; dismiss it first with one of its controls: [3] [4] (listed first below). Elements under it cannot be clicked or typed into until it is gone.');
  t.match(renderOverlay({ ...overlay, refs: [] }), /no control to dismiss it \(try browser_press_key "Escape"\)/);
  const rendered = renderSnapshot({
    mode: 'full', title: 'Sign in', url: 'http://127.0.0.1:1/login', text: '', textTruncated: false, textChars: 0, elements: [button, link, field], elementCount: 3, tabs: [], overlay, chars: 0,
  });
  t.match(rendered, /^Page: Sign in\nURL: http:\/\/127\.0\.0\.1:1\/login\nOverlay: <div id="cookie-banner">/);
});

t.test('frames are named once under the header', async (t) => {
  const frame = 'http://localhost:1/pay?token=pt_0123456789abcdef';
  const rendered = renderSnapshot({
    mode: 'full', title: 'Order', url: 'http://127.0.0.1:1/orders/1', text: '', textTruncated: false, textChars: 0, elementCount: 2, tabs: [], chars: 0,
    elements: [{ ref: 1, tag: 'input', label: 'Card number', frame }, { ref: 2, tag: 'button', label: 'Pay', frame }],
  });
  t.match(rendered, `Frames: f1 ${frame}\n`);
  t.match(rendered, '[1] input "Card number" (in f1)\n[2] button "Pay" (in f1)');
  t.equal(rendered.split(frame).length, 2, 'the URL once');
});
