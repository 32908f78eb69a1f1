// Semantic targets ({role, name}, {text}, {label}) of click, fillInput, waitForElement and
// uploadFile against a real headless Chromium, through POST /repl on test/fixtures/
// semantic-targets.html: matching rules, shadow roots and same-origin frames, ambiguity, waiting,
// validation, snapshot-node labels in errors, and fillInput's hit test. No assertion depends on
// timing.
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interactionApi } from '../helpers/interaction-api.mjs';

const page = await interactionApi(t);
const { ok, value, failure, open } = page;

const clicks = () => value(`js('window.clicks')`);
const frameClicks = () => value(`js('document.getElementById("frame").contentWindow.clicks')`);
const valueOf = (id) => value(`js('document.getElementById(${JSON.stringify(id)}).value')`);

t.beforeEach(() => open('semantic-targets.html'));

t.test('{role, name}: case-insensitive substring, exact, RegExp, the accessible name', async (t) => {
  await ok(`await click({ role: 'button', name: 'book NOW' })`);
  t.same(await clicks(), ['book-now'], 'substring, any case');
  // The name comes from aria-label ("Pay securely"), not from the content ("Pay").
  await ok(`await click({ role: 'button', name: /^pay secure/i })`);
  t.same(await clicks(), ['book-now', 'pay'], 'a RegExp');
  t.equal((await failure(`await click({ role: 'button', name: 'Pay', exact: true }, { timeoutSec: 0 })`)).message,
    'click: {role: "button", name: "Pay", exact: true} was not actionable within 0s (not found)');
  await ok(`await click({ role: 'link', name: 'Booking help', exact: true })`);
  t.same(await clicks(), ['book-now', 'pay', 'booking-link'], 'exact, and role narrows (the link is not a button)');
  t.equal((await failure(`await click({ role: 'button', name: 'Cancel' }, { timeoutSec: 0 })`)).message,
    'click: {role: "button", name: "Cancel"} was not actionable within 0s (disabled)', 'the usual checks apply');
});

t.test('several visible matches fail at once, listing them; hidden ones do not count', async (t) => {
  const caught = await failure(`await click({ role: 'button', name: 'Book' }, { timeoutSec: 30 })`);
  t.equal(caught.code, 'REPL_ERR_ACTION_FAILED');
  t.equal(caught.message,
    'click: {role: "button", name: "Book"} matched 2 elements: button "Book now", button "Book later"; narrow it (a longer name, exact: true, a RegExp) or use a CSS selector or snapshot node');
  // Only the innermost elements with the text count, not the ancestors that contain it too.
  t.equal((await failure(`await fillInput({ text: 'travel shop' }, 'x')`)).message,
    'fillInput: {text: "travel shop"} matched 3 elements: heading "Travel shop", paragraph "Welcome to the travel shop", paragraph "Welcome to the travel shop, where you book trips"; narrow it (a longer name, exact: true, a RegExp) or use a CSS selector or snapshot node');
  t.same(await clicks(), [], 'nothing was clicked');
});

t.test('{text}: visible text, whitespace-normalised; exact is whole-string and case-sensitive', async (t) => {
  await ok(`await click({ text: 'booking HELP' })`);
  t.same(await clicks(), ['booking-link']);
  // "Welcome   to the\n travel <b>shop</b>" reads "Welcome to the travel shop".
  t.same(await value(`[
    await waitForElement({ text: 'Welcome to the travel shop', exact: true }, { timeoutSec: 0 }),
    await waitForElement({ text: 'welcome to the travel shop', exact: true }, { timeoutSec: 0 }),
    await waitForElement({ text: /travel shop, where/ }, { timeoutSec: 0 }),
  ]`), [true, false, true]);
  await ok(`await click({ text: 'shop', exact: true })`);
  t.same(await clicks(), ['booking-link', 'shop-word'], 'the innermost element with exactly that text');
  // A label's text stands for its control, as a click on the label would.
  await ok(`await fillInput({ text: 'Email address', exact: true }, 'ada@example.com')`);
  t.equal(await valueOf('email'), 'ada@example.com');
});

t.test('{label}: <label for>, a wrapping label, aria-labelledby and aria-label resolve to the control', async (t) => {
  await ok(`
    await fillInput({ label: 'email address' }, 'a@b.c');
    await fillInput({ label: 'Nickname' }, 'ada');
    await fillInput({ label: 'Phone', exact: true }, '555');
    await fillInput({ label: 'Search query' }, 'flights');
    await fillInput({ label: /^notes$/i }, 'window seat');
  `);
  t.same(await value(`js('["email", "nick", "phone", "search", "search-hidden", "notes"].map((id) => document.getElementById(id).value)')`),
    ['a@b.c', 'ada', '555', 'flights', '', 'window seat'], 'the hidden duplicate of "Search query" is not ambiguous');
});

t.test('semantic targets reach open shadow roots and same-origin iframes', async (t) => {
  await ok(`
    await click({ role: 'button', name: 'Save in shadow' });
    await fillInput({ label: 'Shadow city' }, 'Lyon');
    await click({ role: 'button', name: 'Checkout in frame' });
    await fillInput({ label: 'Frame postcode' }, '69001');
  `);
  t.same(await clicks(), ['shadow-save']);
  t.same(await frameClicks(), ['frame-checkout']);
  t.same(await value(`js('[document.getElementById("panel").shadowRoot.getElementById("shadow-city").value, document.getElementById("frame").contentDocument.getElementById("frame-zip").value]')`),
    ['Lyon', '69001']);
});

t.test('no match yet is waited for, like a selector; the timeout names the target', async (t) => {
  const result = await value(`(async () => {
    const clicking = click({ role: 'button', name: 'Late offer' }, { timeoutSec: 20 });
    const before = await waitForElement({ text: 'Late offer' }, { timeoutSec: 0 });
    await js('addLate("Late offer")');
    await clicking;
    return { before, clicks: await js('clicks') };
  })()`);
  t.same(result, { before: false, clicks: ['late-button'] });
  const caught = await failure(`await click({ role: 'button', name: 'Nowhere' }, { timeoutSec: 0.2 })`);
  t.equal(caught.code, 'REPL_ERR_ACTION_FAILED');
  t.equal(caught.message, 'click: {role: "button", name: "Nowhere"} was not actionable within 0.2s (not found)');
});

t.test('waitForElement states over all matches of a semantic target', async (t) => {
  t.same(await value(`[
    await waitForElement({ role: 'button', name: 'Book hidden' }, { state: 'attached', timeoutSec: 0 }),
    await waitForElement({ role: 'button', name: 'Book hidden' }, { state: 'visible', timeoutSec: 0 }),
    await waitForElement({ role: 'button', name: 'Book hidden' }, { state: 'hidden', timeoutSec: 0 }),
    await waitForElement({ label: 'No such field' }, { state: 'detached', timeoutSec: 0 }),
    await waitForElement({ role: 'heading', name: 'Travel shop' }, { timeoutSec: 0 }),
  ]`), [true, false, true, true, true]);
});

t.test('every named snapshot node is found again by {role, name, exact: true}: names agree with Chromium\'s', async (t) => {
  const { nodes } = await value('accessibilitySnapshot()');
  // The segments of a date input live in its user-agent shadow root, which page scripts cannot
  // enter (documented): the date input itself is the target.
  const date = nodes.find((node) => node.role === 'Date');
  const segments = nodes.slice(nodes.indexOf(date) + 1, nodes.findIndex((node, i) => i > nodes.indexOf(date) && node.depth <= date.depth));
  t.ok(segments.length > 0 && segments.every((node) => ['spinbutton', 'button'].includes(node.role)), 'the date segments are listed under it');
  const named = nodes.filter((node) => node.name !== '' && !segments.includes(node));
  t.ok(named.length >= 20, `${named.length} named nodes`);
  for (const role of ['button', 'link', 'textbox', 'heading', 'region', 'Date', 'file input', 'Iframe', 'LabelText']) {
    t.ok(named.some((node) => node.role === role), `the fixture has a ${role} node`);
  }
  const found = await value(`Promise.all(${JSON.stringify(named.map(({ role, name }) => ({ role, name })))}.map(async (node) =>
    [node.role + ' ' + JSON.stringify(node.name), await waitForElement({ ...node, exact: true }, { state: 'attached', timeoutSec: 0 })]))`);
  t.same(found.filter(([, hit]) => !hit), [], 'no node is missed');
});

t.test('errors name a snapshot node by its role and name', async (t) => {
  await ok(`globalThis.nodes = (await accessibilitySnapshot()).nodes`);
  const id = await value(`nodes.find((node) => node.name === 'Cancel').backendNodeId`);
  t.equal((await failure(`await click(nodes.find((node) => node.name === 'Cancel'), { timeoutSec: 0 })`)).message,
    `click: node ${id} (button "Cancel") was not actionable within 0s (disabled)`);
  const emailId = await value(`nodes.find((node) => node.name === 'Email address').backendNodeId`);
  t.equal((await failure(`await uploadFile(nodes.find((node) => node.name === 'Email address'), '/etc/hostname')`)).message,
    `uploadFile: node ${emailId} (textbox "Email address") is a <input>, not an <input type=file>`);
});

t.test('malformed targets fail with REPL_ERR_INVALID_ARGUMENT naming the field', async (t) => {
  const cases = [
    [`click({ role: 3 })`, 'click: target.role must be a non-empty string (an ARIA role such as "button")'],
    [`click({ role: 'button', name: 42 })`, 'click: target.name must be a string or a RegExp'],
    [`fillInput({ label: 'Email', exact: 'yes' }, 'x')`, 'fillInput: target.exact must be a boolean'],
    [`fillInput({ label: '  ' }, 'x')`, 'fillInput: target.label must be a non-empty string or a RegExp'],
    [`waitForElement({ text: null })`, 'waitForElement: target.text must be a non-empty string or a RegExp'],
    [`waitForElement({ role: 'button', text: 'Book' })`, 'waitForElement: target has both role and text; use one of role, text or label'],
    [`click({ name: 'Book' })`, 'click: target.name needs target.role, as in {role: "button", name: "Save"}'],
    [`click({ text: 'Book', name: 'Book' })`, 'click: target.name goes with target.role; {text} matches on its own'],
    [`click({ exact: true })`, 'click: target needs role, text or label (a semantic target is {role, name?, exact?}, {text, exact?} or {label, exact?})'],
    [`uploadFile({ label: 'Passport', kind: 'file' }, '/etc/hostname')`, 'uploadFile: unknown target field: kind (a semantic target is {role, name?, exact?}, {text, exact?} or {label, exact?})'],
  ];
  for (const [call, message] of cases) {
    const caught = await failure(`await ${call}`);
    t.same(caught, { threw: true, code: 'REPL_ERR_INVALID_ARGUMENT', message }, call);
  }
});

t.test('fillInput applies click\'s hit test: a covered field fails naming the cover; force skips it', async (t) => {
  const caught = await failure(`await fillInput({ label: 'Coupon code' }, 'SAVE10', { timeoutSec: 0.3 })`);
  t.equal(caught.code, 'REPL_ERR_ACTION_FAILED');
  t.equal(caught.message, 'fillInput: {label: "Coupon code"} was not editable within 0.3s (intercepted by <div id="banner">)');
  t.equal((await failure(`await fillInput('#covered', 'SAVE10', { timeoutSec: 0 })`)).message,
    'fillInput: selector "#covered" was not editable within 0s (intercepted by <div id="banner">)');
  t.equal(await valueOf('covered'), '', 'nothing was typed');
  await ok(`await fillInput('#covered', 'FORCED', { force: true })`);
  t.equal(await valueOf('covered'), 'FORCED');
  await ok(`await click({ role: 'button', name: 'Accept cookies' }); await fillInput({ label: 'Coupon code' }, 'SAVE10')`);
  t.equal(await valueOf('covered'), 'SAVE10', 'once the banner is gone the field is reachable');
  t.equal((await failure(`await fillInput('#covered', 'x', { force: 1 })`)).message, 'fillInput: force must be a boolean');
});

t.test('date inputs by label or by the snapshot\'s role name', async (t) => {
  await ok(`await fillInput({ label: 'Departure date' }, '2031-05-17')`);
  t.equal(await valueOf('when'), '2031-05-17');
  await ok(`await fillInput({ role: 'Date', name: 'Departure date' }, '2032-01-02')`);
  t.equal(await valueOf('when'), '2032-01-02');
});

t.test('uploadFile takes semantic targets; a label stands for its (hidden) file input', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'semantic-upload-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const a = join(dir, 'passport.pdf');
  const b = join(dir, 'visa.pdf');
  writeFileSync(a, 'passport');
  writeFileSync(b, 'visa');
  const files = await value(`(async () => {
    await uploadFile({ label: 'Passport scan' }, ${JSON.stringify(a)});
    await uploadFile({ role: 'button', name: 'Extra documents' }, [${JSON.stringify(a)}, ${JSON.stringify(b)}]);
    await uploadFile({ label: 'Styled upload' }, ${JSON.stringify(b)});
    return js('["passport", "extras", "styled-upload"].map((id) => [...document.getElementById(id).files].map((file) => file.name))');
  })()`);
  t.same(files, [['passport.pdf'], ['passport.pdf', 'visa.pdf'], ['visa.pdf']]);
  t.equal((await failure(`await uploadFile({ label: 'Email address' }, ${JSON.stringify(a)})`)).message,
    'uploadFile: {label: "Email address"} matches a <input[type=email]>, not an <input type=file>');
  t.equal((await failure(`await uploadFile({ role: 'file input', name: 'Passport scan' }, [${JSON.stringify(a)}, ${JSON.stringify(b)}])`)).message,
    `uploadFile: the file input matching {role: "file input", name: "Passport scan"} accepts one file (no "multiple" attribute), got 2`);
  t.equal((await failure(`await uploadFile({ role: 'file input' }, ${JSON.stringify(a)})`)).message,
    'uploadFile: {role: "file input"} matches 3 file inputs (file input "Passport scan", file input "Extra documents", file input "Styled upload") and not exactly one of them is visible; use a more specific target');
  const missing = await failure(`await uploadFile({ label: 'Visa scan' }, ${JSON.stringify(a)}, { timeoutSec: 0.2 })`);
  t.equal(missing.code, 'REPL_ERR_TARGET_NOT_FOUND');
  t.equal(missing.message, 'uploadFile: no element matches {label: "Visa scan"} (waited 0.2s)');
});
