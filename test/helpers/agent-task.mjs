// The scripted agent of issue 25: one whole task on the shop site (test/helpers/shop-site.mjs),
// driven through MCP tools alone the way a model does it: read the last answer's text, pick refs
// from that text by their visible label, act, read. Two drivers run the same steps: ours (our
// tool names; our `[12] button "Save"` lines and diffs) and Playwright MCP's (its YAML snapshot,
// `- button "Save" [ref=e12]`; no page tools, so the note goes through the page's form).
//
// The task, as a user would give it: sign in; cancel the open order of one customer (on page 2 of
// the list) after confirming the dialog, and check in its details that it is cancelled; find the
// order of another customer with the search box, open its details, download its invoice, attach
// the receipt, pay it by card, and add a note to it.
//
// Decisions are made from the answers' text only. What the issue demands of our answers is
// recorded as checks (`report.checks`); a failed check does not stop the run where a model would
// recover (it reads the page again, or takes the one matching button), so that one run names every
// step that fails. What reached the shop is verified separately: `shopEffectsFailures`.
import { invoiceCsv, PAY_ORDER_ID, CANCEL_ORDER_ID, SHOP_ORDERS, SHOP_PASSWORD, SHOP_EMAIL_DOMAIN } from './shop-site.mjs';
import { ourElements, playwrightElements } from '../../bench/suites/agent-tools.mjs';
import { HELP_ENTRIES } from '../../dist/common/help/help-registry.js';

/** What the user asks for in run `run` (a new staff account each run, so effects never mix). */
export function shopTask(site, run) {
  const receipt = Buffer.concat([
    Buffer.from(`%PDF-1.4\n% receipt of order ${PAY_ORDER_ID}, run ${run}\n`),
    Buffer.from(Array.from({ length: 1024 }, (_, index) => (index * 37 + run) & 0xff)),
    Buffer.from('\n%%EOF\n'),
  ]);
  return {
    run,
    loginUrl: site.url('/login'),
    email: `agent-${run}-${process.pid}@${SHOP_EMAIL_DOMAIN}`,
    password: SHOP_PASSWORD,
    cancelCustomer: SHOP_ORDERS.find((order) => order.id === CANCEL_ORDER_ID).customer,
    payCustomer: SHOP_ORDERS.find((order) => order.id === PAY_ORDER_ID).customer,
    card: '4242 4242 4242 4242',
    expiry: '12/30',
    receipt: { name: `receipt-${PAY_ORDER_ID}-${run}.pdf`, data: receipt },
    note: `Customer asked for delivery after 17:00 (run ${run}).`,
  };
}

// ----- reading answers ----------------------------------------------------------------------

const normalize = (text) => text.toLowerCase().replace(/\s+/g, ' ').trim();

/** The order number shown next to `customer` in a list's text (`#1022 Jonas Lindqvist …`), or undefined. */
export function orderIdNear(text, customer) {
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    if (!lines[index].includes(customer)) continue;
    for (const line of [lines[index], lines[index - 1] ?? '', lines[index + 1] ?? '']) {
      const id = /#(\d{3,})\b/.exec(line)?.[1];
      if (id !== undefined) return id;
    }
  }
  return undefined;
}

/** The helper names of our REPL (repl.help()), which no tool message may speak of. */
const HELPER_NAMES = HELP_ENTRIES.filter((entry) => entry.name.startsWith('browser.')).map((entry) => entry.name.slice('browser.'.length));
const REPL_WORDS = [
  new RegExp(`\\b(?:${HELPER_NAMES.join('|')})\\s*\\(`),
  new RegExp(`^(?:${HELPER_NAMES.join('|')}):`, 'm'),
  /backend node/i,
  /\b(?:Page|DOM|Runtime|Input|Target|Network|Browser|Emulation|Accessibility|Fetch|Storage)\.[a-z][A-Za-z]+\b/,
];

/** What in a tool's answer speaks the REPL (helpers, CDP methods, backend node ids) rather than MCP tools and refs. */
export function replWordsIn(text) {
  return REPL_WORDS.map((pattern) => pattern.exec(text)?.[0]).filter((word) => word !== undefined);
}

/** The part of our answer before the page (`Page:` header): what the tool says it did. */
const messageOf = (text) => text.split(/\n\nPage: /)[0];

/**
 * The popup an action's answer says it opened: the line that says so (not the `Tabs:` header,
 * which lists tabs without saying which one is new) and the tab index it names.
 */
export function reportedPopup(text) {
  const line = text.split('\n').find((candidate) => !candidate.startsWith('Tabs:') && /popup|new tab/i.test(candidate) && /\d/.test(candidate));
  const index = line === undefined ? undefined : [/\btab\s*\[?#?(\d+)/i, /\[(\d+)\]/, /\bindex\s*(\d+)/i].map((pattern) => pattern.exec(line)?.[1]).find((found) => found !== undefined);
  return { line, index: index === undefined ? undefined : Number(index) };
}

/** What one agent knows of the page: the elements of the answers it read so far, by ref. */
class OurPageView {
  elements = new Map();

  /** Takes in an answer: a full snapshot replaces what was known, a diff updates it. */
  read(text) {
    if (/^(?:Elements \(|A new document)/m.test(text) && /^Page: /m.test(text)) this.elements.clear();
    for (const ref of /^Removed: (.*)$/m.exec(text)?.[1].match(/\d+/g) ?? []) this.elements.delete(Number(ref));
    for (const element of ourElements(text)) this.elements.set(element.ref, element);
    return text;
  }

  forget() {
    this.elements.clear();
  }

  /** The ref of the element whose name is `name` (a string, case and spaces ignored, or a RegExp). */
  find(name) {
    const matches = [...this.elements.values()].filter((element) => (name instanceof RegExp ? name.test(element.name) : normalize(element.name) === normalize(name)));
    return matches.at(-1)?.ref;
  }

  all(pattern) {
    return [...this.elements.values()].filter((element) => pattern.test(element.name));
  }
}

/** Tabs as our answers show them: `Tabs: [0]* Orders …; [1] Order 1011 … (browser_tabs selects one)` or browser_tabs list lines. */
export function ourTabs(text) {
  const header = /^Tabs: (.*?)(?: \(browser_tabs[^)]*\))?$/m.exec(text)?.[1];
  if (header !== undefined) return [...header.matchAll(/\[(\d+)\](\*)? ([^;]*)/g)].map((match) => ({ index: Number(match[1]), title: match[3].trim(), active: match[2] === '*' }));
  return [...text.matchAll(/^(\d+):( \(active\))? (.*)$/gm)].map((match) => ({ index: Number(match[1]), title: match[3], active: match[2] !== undefined }));
}

/** The tab an answer shows as active (its `Tabs:` header marks it with `*`), if it shows tabs. */
export function activeTab(text) {
  return ourTabs(text).find((tab) => tab.active);
}

// ----- the run's record ----------------------------------------------------------------------

class Report {
  checks = [];
  facts = {};

  constructor(side) {
    this.side = side;
  }

  check(name, ok, detail = '') {
    this.checks.push({ name, ok: ok === true, detail: ok === true ? '' : detail });
    return ok === true;
  }

  get failures() {
    return this.checks.filter((check) => !check.ok);
  }
}

/** A step that cannot go on (no ref to act on): the run stops there, named in the report. */
class Stuck extends Error {}

function need(report, value, what) {
  if (value === undefined) {
    report.check(what, false, 'not found in what the agent read');
    throw new Stuck(what);
  }
  return value;
}

// ----- our driver ----------------------------------------------------------------------------

/**
 * Runs the task on our server through `client` (an AgentClient): `{ checks, failures, facts, stats }`.
 * `facts.download` is the resource link browser_downloads gave for the invoice.
 */
export async function runOurTask(client, task) {
  const report = new Report('chromium-repl');
  const view = new OurPageView();
  const words = [];
  const act = async (name, args, options) => {
    const label = args?.ref === undefined ? undefined : view.elements.get(args.ref)?.name;
    let answer = await client.call(name, args, options);
    // A ref the page re-rendered meanwhile is read again (as the error says to) and tried once
    // more by its label, as the Playwright side does (`actOn`) and as a model would.
    if (answer.isError && label !== undefined && /is stale/.test(answer.text)) {
      view.read((await client.call('browser_snapshot', {})).text);
      const again = view.find(label);
      if (again !== undefined) answer = await client.call(name, { ...args, ref: again }, options);
    }
    if (answer.cut) view.forget();
    else view.read(answer.text);
    if (!['browser_repl', 'execute_playwright_code', 'webmcp_invoke_tool', 'webmcp_list_tools'].includes(name)) {
      for (const word of replWordsIn(answer.text)) words.push(`${name}: ${word}`);
    }
    return answer;
  };
  /** A ref by label, reading the page once more when what is known does not have it (a model re-reads too). */
  const refOf = async (name) => view.find(name) ?? (await act('browser_snapshot', {}), view.find(name));
  const waitFor = (text, snapshot = 'diff') => act('browser_wait_for', { text, timeout_ms: 5_000, snapshot }, { wait: true, waitMs: 5_000 });
  const ok = (answer, what) => report.check(what, !answer.isError, answer.cut ? 'the call was cut after stalling' : answer.text.slice(0, 400));
  /**
   * Searches the list for `customer` (typed into the search box, then waited for: the search is
   * debounced): the order number of the row if the text shows it, else the one button matching
   * `button` that the filtered list left (how a model gets on without the rows' text).
   */
  const searchedOrder = async (customer, button) => {
    const typed = await act('browser_type', { ref: need(report, await refOf('Search orders'), 'the search box'), text: customer, snapshot: 'diff' });
    ok(typed, 'typing the search');
    let found = typed.text;
    if (orderIdNear(found, customer) === undefined) {
      const waited = await waitFor(customer);
      ok(waited, 'the search result appears');
      found = waited.text;
    }
    const id = orderIdNear(found, customer);
    report.check(`the search result's row of ${customer} is in the text`, id !== undefined, 'no row line with the customer and an order number');
    const left = view.all(button);
    return id ?? (left.length === 1 ? /\d+$/.exec(left[0].name)[0] : undefined);
  };

  try {
    // 1. The sign-in page, under the consent banner.
    const opened = await act('browser_open', { url: task.loginUrl });
    if (!ok(opened, 'browser_open answers')) throw new Stuck('open');
    const bannerControls = ['Accept all', 'Reject optional', 'Preferences'].map((name) => view.find(name)).filter((ref) => ref !== undefined);
    const listed = ourElements(opened.text).map((element) => element.ref);
    report.check('the snapshot lists the covering banner\'s controls first', bannerControls.length === 3 && bannerControls.every((ref) => listed.indexOf(ref) < 3),
      `elements in order: ${listed.join(', ')}; banner controls: ${bannerControls.join(', ')}`);
    const beforeElements = opened.text.split(/^\[\d+\]/m)[0];
    report.check('the snapshot says an overlay covers the page', /overlay|cover/i.test(beforeElements), beforeElements);

    // 2. The deliberate first mistake: typing into the field the banner covers.
    const email = need(report, view.find('Email'), 'the Email field');
    const mistake = await act('browser_type', { ref: email, text: task.email, snapshot: 'none' });
    const namedRefs = new Set([...mistake.text.matchAll(/\[(\d+)\]|\bref (\d+)/g)].map((match) => Number(match[1] ?? match[2])));
    report.check('typing under the banner fails (not silently done)', mistake.isError, mistake.text.slice(0, 300));
    report.check('the failure names the target\'s ref and the cover', namedRefs.has(email) && /cookie|privacy/i.test(mistake.text), mistake.cut ? 'cut after stalling' : mistake.text.slice(0, 300));
    const dismiss = ['Reject optional', 'Accept all'].map((name) => view.find(name)).find((ref) => namedRefs.has(ref));
    report.check('the failure names the banner\'s buttons by ref', dismiss !== undefined && ['Reject optional', 'Accept all'].every((name) => namedRefs.has(view.find(name))),
      `refs named: ${[...namedRefs].join(', ') || 'none'}`);
    // 3. The banner's button the message named (a model without one takes it from the snapshot).
    if (mistake.cut || view.find('Reject optional') === undefined) await act('browser_snapshot', {});
    ok(await act('browser_click', { ref: need(report, dismiss ?? view.find('Reject optional'), 'a banner button'), snapshot: 'diff' }), 'the banner\'s button is clicked');

    // 4. Sign in.
    ok(await act('browser_type', { ref: need(report, await refOf('Email'), 'the Email field'), text: task.email, snapshot: 'none' }), 'typing the email');
    const signedIn = await act('browser_type', { ref: need(report, await refOf('Password'), 'the Password field'), text: task.password, submit: true, snapshot: 'diff' });
    ok(signedIn, 'signing in');
    // An answer that came before the list rendered is followed by a read, as a model would.
    const rowsOf = (text) => SHOP_ORDERS.slice(0, 10).every((order) => text.includes(order.customer) && text.includes(`#${order.id}`));
    const list = rowsOf(signedIn.text) ? signedIn.text : (await act('browser_snapshot', {})).text;
    report.check('the orders list\'s rows (open shadow root) are in the snapshot\'s text', rowsOf(list), 'customers of page 1 missing from the text');

    // 5. The order to cancel is on another page of the list.
    let cancelId = orderIdNear(list, task.cancelCustomer);
    let found = false;
    for (let page = 0; cancelId === undefined && page < 3 && view.find('Next') !== undefined; page++) {
      const next = await act('browser_click', { ref: view.find('Next'), snapshot: 'diff' });
      ok(next, 'Next page');
      // The customer is looked for with browser_find, which also reads a page the answer came too early for.
      const match = await act('browser_find', { query: task.cancelCustomer });
      found ||= match.text.includes(task.cancelCustomer);
      cancelId = orderIdNear(match.text, task.cancelCustomer) ?? orderIdNear(next.text, task.cancelCustomer);
    }
    report.check(`browser_find finds ${task.cancelCustomer}, shown in the list (open shadow root)`, found, 'no page of the list matched');
    report.check(`the row of ${task.cancelCustomer} is in the text, with its order number`, cancelId !== undefined, 'neither the pages nor browser_find showed it');
    if (cancelId === undefined) cancelId = await searchedOrder(task.cancelCustomer, /^Cancel order \d+$/);
    if (cancelId !== undefined) {
      const asked = await act('browser_click', { ref: need(report, await refOf(`Cancel order ${cancelId}`), `the Cancel button of order ${cancelId}`), snapshot: 'diff' });
      report.check('the Cancel click reports the confirm dialog it opened', /confirm/i.test(asked.text) && asked.text.includes(`Cancel order ${cancelId}`), asked.text.slice(0, 400));
      const confirmed = await act('browser_handle_dialog', { accept: true, snapshot: 'diff' });
      ok(confirmed, 'browser_handle_dialog accepts the confirm');
      report.check('answering the dialog is not reported as a new document', !/A new document/.test(confirmed.text), confirmed.text.slice(0, 300));
      if (!/was cancelled/.test(confirmed.text)) ok(await waitFor('was cancelled'), 'the list says the order was cancelled');

      // 6. Its details, in a popup: the first popup of the session.
      const viewed = await act('browser_click', { ref: need(report, await refOf(`View order ${cancelId}`), `the View button of order ${cancelId}`), snapshot: 'diff' });
      const popup = reportedPopup(viewed.text);
      report.check('the View click reports the popup and its tab index', popup.index === 1, popup.line ?? messageOf(viewed.text));
      const tabs = ourTabs(viewed.text).length > 0 ? ourTabs(viewed.text) : ourTabs((await act('browser_tabs', { action: 'list' })).text);
      const detailsTab = need(report, tabs.find((tab) => tab.title.includes(`Order ${cancelId}`))?.index, `the tab of order ${cancelId}`);
      // The answer says whether the new tab is the active one already (and then is its snapshot).
      const details = activeTab(viewed.text)?.index === detailsTab ? viewed : await act('browser_tabs', { action: 'select', index: detailsTab, snapshot: 'diff' });
      report.check('the cancelled order\'s details say it is cancelled', /Status: Cancelled/.test(details.text), details.text.slice(0, 300));
      ok(await act('browser_tabs', { action: 'select', index: need(report, ourTabs(details.text).find((tab) => tab.title.startsWith('Orders'))?.index, 'the orders tab'), snapshot: 'diff' }), 'back to the orders tab');
    }

    // 7. The order to pay, through the debounced search.
    const payId = need(report, await searchedOrder(task.payCustomer, /^View order \d+$/), `the order of ${task.payCustomer}`);
    const opening = await act('browser_click', { ref: need(report, view.find(`View order ${payId}`), `the View button of order ${payId}`), snapshot: 'diff' });
    ok(opening, 'View opens the order');
    const popup = reportedPopup(opening.text);
    if (cancelId !== undefined) report.check('the second popup is reported with its tab index, after the first', popup.index === 2, popup.line ?? messageOf(opening.text));
    const tabs = ourTabs(opening.text).length > 0 ? ourTabs(opening.text) : ourTabs((await act('browser_tabs', { action: 'list' })).text);
    if (cancelId !== undefined) {
      report.check('tabs keep their opening order', tabs.find((tab) => tab.title.includes(`Order ${cancelId}`))?.index === 1 && tabs.find((tab) => tab.title.includes(`Order ${payId}`))?.index === 2,
        JSON.stringify(tabs));
    }
    const orderTab = need(report, tabs.find((tab) => tab.title.includes(`Order ${payId}`))?.index, `the tab of order ${payId}`);
    const order = activeTab(opening.text)?.index === orderTab ? opening : await act('browser_tabs', { action: 'select', index: orderTab, snapshot: 'diff' });
    ok(order, 'the order\'s tab is selected');
    report.check('the order\'s page shows its total', /Total due EUR 218\.30/.test(order.text), order.text.slice(0, 300));

    // 8. The invoice.
    const clicked = await act('browser_click', { ref: need(report, await refOf('Download invoice (CSV)'), 'the invoice link'), snapshot: 'none' });
    ok(clicked, 'clicking the invoice link');
    report.check('the click reports the download it started', /download/i.test(clicked.text) && clicked.text.includes(`invoice-${payId}.csv`), clicked.text.slice(0, 300));
    let downloads = await act('browser_downloads', {});
    report.check('browser_downloads lists the invoice right after the click', downloads.text.includes(`invoice-${payId}.csv`), downloads.text.slice(0, 300));
    const linkIn = (answer) => answer.content.find((item) => item.type === 'resource_link' && item.name.endsWith(`invoice-${payId}.csv`));
    // A download still in progress is listed without its file yet: asked again, as a model would.
    for (let attempt = 0; linkIn(downloads) === undefined && downloads.text.includes(`invoice-${payId}.csv`) && attempt < 3; attempt++) downloads = await act('browser_downloads', {});
    report.check('browser_downloads links the saved invoice', linkIn(downloads) !== undefined, downloads.text.slice(0, 300));
    report.facts.download = linkIn(downloads);

    // 9. The receipt, handed to the page inline.
    const uploaded = await act('browser_file_upload', {
      ref: need(report, await refOf('Attach receipt'), 'the receipt file input'),
      files: [{ name: task.receipt.name, content: task.receipt.data.toString('base64'), encoding: 'base64' }],
      snapshot: 'none',
    });
    if (ok(uploaded, 'browser_file_upload takes the file inline')) {
      const sent = await act('browser_click', { ref: need(report, await refOf('Upload receipt'), 'the Upload receipt button'), snapshot: 'diff' });
      const shown = /Receipt uploaded/.test(sent.text) ? sent : await waitFor('Receipt uploaded');
      report.check('the page confirms the upload', shown.text.includes(`Receipt uploaded: ${task.receipt.name} (${task.receipt.data.length} bytes)`), shown.text.slice(0, 300));
    }

    // 10. The payment, in the popup's cross-site iframe.
    ok(await act('browser_type', { ref: need(report, await refOf('Card number'), 'the card number field'), text: task.card, snapshot: 'none' }), 'typing the card number');
    ok(await act('browser_type', { ref: need(report, await refOf('Expiry (MM/YY)'), 'the expiry field'), text: task.expiry, snapshot: 'none' }), 'typing the expiry');
    const paid = await act('browser_click', { ref: need(report, await refOf(/^Pay EUR \d/), 'the Pay button'), snapshot: 'diff' });
    ok(paid, 'clicking Pay');
    const receipt = /Payment received/.test(paid.text) ? paid : await waitFor('Payment received');
    report.check('the payment frame shows the receipt', /Payment received: EUR 218\.30/.test(receipt.text), receipt.cut ? 'the wait was cut' : receipt.text.slice(0, 300));

    // 11. The note, through the tool the orders page declares (WebMCP).
    const listing = await act('webmcp_list_tools', {});
    const declared = [...listing.text.matchAll(/^\{.*\}$/gm)].map((line) => JSON.parse(line[0])).find((tool) => tool.tool?.name === 'add_order_note');
    const invoked = await act('webmcp_invoke_tool', { tool_ref: need(report, declared?.tool_ref, 'the add_order_note page tool'), input: { order_id: payId, note: task.note } });
    report.check('the page tool add_order_note completes', !invoked.isError && /completed/.test(invoked.text), invoked.text.slice(0, 300));
  } catch (error) {
    if (!(error instanceof Stuck)) throw error;
  }
  report.check('every message speaks of tools and refs, not of REPL helpers', words.length === 0, words.join('; '));
  const stats = client.stats();
  report.check('no call took 5 s or more (explicit waits aside)', stats.slow.length === 0, stats.slow.join('; '));
  return { side: report.side, checks: report.checks, failures: report.failures, facts: report.facts, stats };
}

// ----- Playwright MCP's driver ---------------------------------------------------------------

/** What Playwright MCP's agent knows: the refs of its latest YAML snapshot, by role and name. */
class PlaywrightPageView {
  elements = [];
  text = '';

  read(text) {
    if (/```yaml/.test(text)) {
      this.text = text;
      this.elements = playwrightElements(text);
    }
    return text;
  }

  find(name, role) {
    return this.elements.find((element) => (role === undefined || element.role === role) && (name instanceof RegExp ? name.test(element.name) : normalize(element.name) === normalize(name)))?.ref;
  }
}

/**
 * Runs the task on Playwright MCP through `client`, with the receipt saved at `receiptPath` (its
 * upload takes a path inside its workspace root): `{ checks, failures, stats }`. Its
 * action answers link the snapshot file instead of carrying it, so the agent calls
 * browser_snapshot whenever it needs to read the page: before picking a ref it does not know yet,
 * and to see what an action did.
 */
export async function runPlaywrightTask(client, task, { receiptPath }) {
  const report = new Report('Playwright MCP');
  const view = new PlaywrightPageView();
  const act = async (name, args, options) => view.read((await client.call(name, args, options)).text);
  /** Reads an answer and records whether the call succeeded: its text. */
  const record = (answer, what) => {
    view.read(answer.text);
    report.check(what, !answer.isError, answer.cut ? 'the call was cut after stalling' : answer.text.slice(0, 400));
    return answer.text;
  };
  const call = async (name, args, what, options) => record(await client.call(name, args, options), what);
  const see = () => act('browser_snapshot', {});
  const refOf = async (name, role) => view.find(name, role) ?? (await see(), view.find(name, role));
  const target = async (name, role) => ({ element: name instanceof RegExp ? name.source : name, target: need(report, await refOf(name, role), `${name}`) });
  /** An action on the element named `name`; a ref the page re-rendered meanwhile is read again (as its error says to) and tried once more. */
  const actOn = async (tool, name, role, args, what) => {
    const first = await client.call(tool, { ...(await target(name, role)), ...args });
    if (!first.isError || !/not found in the current page snapshot/.test(first.text)) return record(first, what);
    await see();
    return call(tool, { ...(await target(name, role)), ...args }, what);
  };
  const waitFor = (text) => call('browser_wait_for', { text }, `the page shows "${text}"`, { wait: true, waitMs: 5_000 });
  const tabIndex = (text, title) => Number(new RegExp(`^- (\\d+):.*\\[${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^\\]]*\\]`, 'm').exec(text)?.[1] ?? Number.NaN);

  try {
    await call('browser_navigate', { url: task.loginUrl }, 'browser_navigate answers');
    await see();
    await actOn('browser_click', 'Reject optional', 'button', {}, 'the banner\'s button is clicked');
    await call('browser_fill_form', {
      fields: [
        { ...(await target('Email', 'textbox')), name: 'Email', type: 'textbox', value: task.email },
        { ...(await target('Password', 'textbox')), name: 'Password', type: 'textbox', value: task.password },
      ],
    }, 'filling the sign-in form');
    await actOn('browser_click', 'Sign in', 'button', {}, 'signing in');
    let cancelId = orderIdNear(await see(), task.cancelCustomer);
    for (let page = 0; cancelId === undefined && page < 3 && view.find('Next', 'button') !== undefined; page++) {
      await actOn('browser_click', 'Next', 'button', {}, 'Next page');
      cancelId = orderIdNear(await see(), task.cancelCustomer);
    }
    need(report, cancelId, `the order of ${task.cancelCustomer}`);
    await actOn('browser_click', `Cancel order ${cancelId}`, 'button', {}, 'clicking Cancel');
    await call('browser_handle_dialog', { accept: true }, 'accepting the confirm');
    if (!(await see()).includes(`Order ${cancelId} was cancelled`)) await waitFor(`Order ${cancelId} was cancelled`);
    const viewed = await actOn('browser_click', `View order ${cancelId}`, 'button', {}, 'View opens the cancelled order');
    const details = await call('browser_tabs', { action: 'select', index: need(report, tabIndex(viewed, `Order ${cancelId}`) || undefined, `the tab of order ${cancelId}`) }, 'selecting its tab');
    const detailsText = /```yaml/.test(details) ? details : await see();
    report.check('the cancelled order\'s details say it is cancelled', /Status: Cancelled|"Cancelled"|: Cancelled/.test(detailsText), detailsText.slice(0, 300));
    await call('browser_tabs', { action: 'select', index: 0 }, 'back to the orders tab');

    await actOn('browser_type', 'Search orders', 'searchbox', { text: task.payCustomer }, 'typing the search');
    await waitFor(task.payCustomer);
    const payId = need(report, orderIdNear(await see(), task.payCustomer), `the order of ${task.payCustomer}`);
    const opening = await actOn('browser_click', `View order ${payId}`, 'button', {}, 'View opens the order');
    await call('browser_tabs', { action: 'select', index: need(report, tabIndex(opening, `Order ${payId}`) || undefined, `the tab of order ${payId}`) }, 'selecting its tab');
    await see();

    const downloaded = await actOn('browser_click', 'Download invoice (CSV)', 'link', {}, 'clicking the invoice link');
    report.check('the click reports the download', /Downloaded file invoice-\d+\.csv/.test(downloaded), downloaded.slice(-300));
    await actOn('browser_click', 'Attach receipt', undefined, {}, 'clicking the file input opens the file chooser');
    await call('browser_file_upload', { paths: [receiptPath] }, 'browser_file_upload sets the receipt');
    await actOn('browser_click', 'Upload receipt', 'button', {}, 'clicking Upload receipt');
    await waitFor('Receipt uploaded');
    await call('browser_fill_form', {
      fields: [
        { ...(await target('Card number', 'textbox')), name: 'Card number', type: 'textbox', value: task.card },
        { ...(await target('Expiry (MM/YY)', 'textbox')), name: 'Expiry', type: 'textbox', value: task.expiry },
      ],
    }, 'filling the card form');
    await actOn('browser_click', /^Pay EUR \d/, 'button', {}, 'clicking Pay');
    // Its browser_wait_for reads the top frame only: the frame's receipt is read in a snapshot.
    await see();
    if (!view.text.includes('Payment received')) {
      await waitFor('Payment received');
      await see();
    }
    report.check('the payment frame shows the receipt', /Payment received: EUR 218\.30/.test(view.text), view.text.slice(-300));
    await actOn('browser_type', 'Internal note', 'textbox', { text: task.note }, 'typing the note');
    await actOn('browser_click', 'Add note', 'button', {}, 'clicking Add note');
    await waitFor(task.note);
  } catch (error) {
    if (!(error instanceof Stuck)) throw error;
  }
  const stats = client.stats();
  report.check('no call took 5 s or more (explicit waits aside)', stats.slow.length === 0, stats.slow.join('; '));
  return { side: report.side, checks: report.checks, failures: report.failures, stats };
}

// ----- what reached the shop -----------------------------------------------------------------

/** What the shop did not receive of the task (empty when every effect arrived, once). */
export function shopEffectsFailures(site, task, { noteSource } = {}) {
  const effects = site.effectsOf(task.email);
  if (effects === undefined) return [`nobody signed in as ${task.email}`];
  const failures = [];
  const expect = (ok, what) => { if (!ok) failures.push(what); };
  expect(site.sessionsOf(task.email) === 1, `one sign-in (got ${site.sessionsOf(task.email)})`);
  expect(effects.cancels.length === 1 && effects.cancels[0].orderId === CANCEL_ORDER_ID, `the cancel of order ${CANCEL_ORDER_ID} (got ${JSON.stringify(effects.cancels)})`);
  expect(effects.searches.includes(task.payCustomer.toLowerCase()), `a search for ${task.payCustomer} (got ${JSON.stringify(effects.searches)})`);
  expect(effects.downloads.some((download) => download.orderId === PAY_ORDER_ID && download.bytes === invoiceCsv(PAY_ORDER_ID).length), `the invoice download of order ${PAY_ORDER_ID}`);
  const [upload, ...moreUploads] = effects.uploads;
  expect(upload !== undefined && moreUploads.length === 0 && upload.orderId === PAY_ORDER_ID && upload.filename === task.receipt.name && upload.data.equals(task.receipt.data),
    `the receipt upload with its bytes (got ${JSON.stringify(effects.uploads.map(({ orderId, filename, data }) => ({ orderId, filename, bytes: data.length })))})`);
  const [payment, ...morePayments] = effects.payments;
  expect(payment !== undefined && morePayments.length === 0 && payment.orderId === PAY_ORDER_ID && payment.amount === '218.30' && payment.cardLast4 === '4242' && payment.expiry === task.expiry,
    `one payment of EUR 218.30 for order ${PAY_ORDER_ID} (got ${JSON.stringify(effects.payments)})`);
  const [note, ...moreNotes] = effects.notes;
  expect(note !== undefined && moreNotes.length === 0 && note.orderId === PAY_ORDER_ID && note.note === task.note && (noteSource === undefined || note.source === noteSource),
    `the note on order ${PAY_ORDER_ID}${noteSource === undefined ? '' : ` through ${noteSource}`} (got ${JSON.stringify(effects.notes)})`);
  return failures;
}
