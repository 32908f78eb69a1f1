// Issue 9: the flows an agent runs on a real site, against a real headless Chromium through the
// HTTP server, on a fixture site of our own (test/helpers/flow-site.mjs): a dialog next to
// Playwright executors, form submissions followed by waitForLoad, downloads (never into $HOME),
// and a cell's own download settings surviving an executor that connects and leaves.
import t from 'tap';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiServer } from '../helpers/api-server.mjs';
import { imageSize } from '../helpers/images.mjs';
import { downloadBody, startFlowSite } from '../helpers/flow-site.mjs';

const site = await startFlowSite();
t.teardown(() => site.close());
const api = await apiServer(t, { primaryBrowser: { browser: { cdpEndpoint: null } } });

const writes = (result) => result.content.filter((item) => item.type === 'text' && item.channel === 'write').map((item) => item.text);
const stderr = (result) => result.content.filter((item) => item.type === 'text' && item.channel === 'stderr').map((item) => item.text).join('\n');
async function json(t, code, extra = {}) {
  const result = await api.repl(`{\n${code}\n}`, { timeout_sec: 60, ...extra });
  t.equal(result.success, true, result.error ?? `cell of ${extra.repl ?? 'default'} succeeded`);
  return JSON.parse(writes(result).at(-1) ?? 'null');
}
async function execute(t, code, extra = {}) {
  const response = await api.call('POST', '/playwright/execute', { code, timeout_sec: 30, ...extra });
  t.equal(response.status, 200, 'executor answered');
  return response.json;
}
const booking = JSON.stringify(site.url('flows-booking.html'));

// ----- dialogs -------------------------------------------------------------------------------

/** A cell opens a confirm() and leaves it; the next cells see it, executors keep working, the REPL answers it. */
async function dialogFlow(t, { executors }) {
  await json(t, `await gotoUrl(${booking}); await waitForLoad(); await click("#book"); repl.write("null")`);
  const seen = await json(t, 'repl.write(JSON.stringify((await pageInfo()).dialog))');
  t.same(seen, { type: 'confirm', message: 'Book this trip?' }, 'the next cell sees the dialog: nobody answered it');
  for (const executor of executors) {
    const answer = await execute(t, 'return 1 + 1', executor === 'default' ? {} : { executor });
    t.same({ success: answer.success, result: answer.result, error: answer.error }, { success: true, result: 2, error: undefined },
      `executor ${executor} runs while the REPL's dialog is pending`);
  }
  const still = await json(t, 'repl.write(JSON.stringify((await pageInfo()).dialog))');
  t.same(still, { type: 'confirm', message: 'Book this trip?' }, 'no executor answered it');
  const handled = await json(t, 'const d = await handleDialog({ accept: true }); repl.write(JSON.stringify({ d, answer: await js("document.getElementById(\\"answer\\").textContent") }))');
  t.same(handled, { d: { type: 'confirm', message: 'Book this trip?' }, answer: 'true' }, 'handleDialog accepted it, and the page got true');
}

t.test('a dialog with no executor', (t) => dialogFlow(t, { executors: [] }));

t.test('a dialog with the default executor connected', async (t) => {
  const first = await execute(t, 'return page.url()');
  t.equal(first.success, true, first.error ?? 'the default executor connected');
  await dialogFlow(t, { executors: ['default'] });
});

t.test('a dialog with two named executors present', async (t) => {
  for (const executor of ['trips', 'hotels']) {
    const first = await execute(t, 'return page.url()', { executor });
    t.equal(first.success, true, first.error ?? `${executor} connected`);
  }
  await dialogFlow(t, { executors: ['trips', 'hotels', 'default'] });
  // Executors do not break each other: the default one's own listener answers its own dialog.
  const own = await execute(t, 'page.once("dialog", (d) => d.accept()); return await page.evaluate(() => confirm("mine?"))');
  t.same({ success: own.success, result: own.result }, { success: true, result: true }, 'the default executor answers its own dialog');
  for (const executor of ['trips', 'hotels']) await api.call('DELETE', `/playwright/executors/${executor}`);
});

t.test('an executor that connects while a dialog is pending does not hang', async (t) => {
  await api.call('DELETE', '/playwright/executors/default');
  await json(t, `await gotoUrl(${booking}); await waitForLoad(); await click("#book"); repl.write("null")`);
  for (const executor of ['fresh', 'default']) {
    const answer = await execute(t, 'return (await page.title()) !== null', executor === 'default' ? {} : { executor });
    t.same({ success: answer.success, error: answer.error }, { success: true, error: undefined }, `a new ${executor} executor connects and runs`);
  }
  const handled = await json(t, 'await handleDialog({ accept: false }); repl.write(JSON.stringify(await js("document.getElementById(\\"answer\\").textContent")))');
  t.equal(handled, 'false', 'the dialog waited for its REPL, which dismissed it');
  await api.call('DELETE', '/playwright/executors/fresh');
});

t.test('a named REPL\'s dialog is never seen by the default REPL or an executor', async (t) => {
  await json(t, `await gotoUrl(${booking}); await waitForLoad(); await click("#book"); repl.write("null")`, { repl: 'travel' });
  const answer = await execute(t, 'return page.url()');
  t.equal(answer.success, true, answer.error ?? 'the default executor is not blocked');
  const defaultSees = await json(t, 'repl.write(JSON.stringify((await pageInfo()).dialog))');
  t.equal(defaultSees, null, 'the default REPL has no dialog');
  const prompt = await json(t, 'await onDialog({ accept: true, promptText: "Ada" }); await handleDialog(); await click("#name"); await waitForElement("#answer"); repl.write(JSON.stringify(await js("document.getElementById(\\"answer\\").textContent")))', { repl: 'travel' });
  t.equal(prompt, 'Ada', 'onDialog answered the next prompt with its text');
  const none = await api.repl('await handleDialog()', { repl: 'travel' });
  t.match(none.error, /handleDialog: no JavaScript dialog is open on the attached page/, 'nothing to handle is a clear error');
  const bad = await api.repl('await onDialog("sometimes")', { repl: 'travel' });
  t.match(bad.error, /onDialog: policy must be "accept", "dismiss"/, 'a bad policy names the choices');
  await api.call('DELETE', '/repls/travel');
});

// ----- one booking flow: semantic targets, a popup, the viewport ------------------------------

t.test('a booking flow with semantic targets, an ambiguous one, a popup and a viewport', async (t) => {
  const dir = t.testdir({});
  const shot = join(dir, 'flow.png');
  const flow = await json(t, `
    await gotoUrl(${booking}); await waitForLoad();
    await setViewport({ width: 800, height: 600 });
    const viewport = (await pageInfo()).viewport;
    await captureScreenshot(${JSON.stringify(shot)});
    await fillInput({ label: "Traveller" }, "Ada");
    const typed = await js("document.getElementById('traveller').value");
    let ambiguous;
    try { await click({ role: "button", name: "Book" }, { timeoutSec: 1 }); } catch (error) { ambiguous = error.message; }
    const popup = await waitForPopup(() => click({ text: "Trip details" }));
    await click({ role: "button", name: "Book later", exact: true });
    const later = await js("document.getElementById('answer').textContent");
    await onDialog("accept");
    await click({ role: "button", name: "Book", exact: true });
    const booked = await js("document.getElementById('answer').textContent");
    await onDialog(null);
    await closeTab(popup);
    await setViewport(null);
    repl.write(JSON.stringify({ viewport, typed, ambiguous, popup: { url: popup.url, title: popup.title }, later, booked }));`);
  t.same(flow.viewport, { width: 800, height: 600 }, 'setViewport is what pageInfo reports');
  t.same(imageSize(readFileSync(shot)), { format: 'png', width: 800, height: 600 }, 'and what the screenshot measures');
  t.equal(flow.typed, 'Ada', '{label} found the field');
  t.match(flow.ambiguous, /\{role: "button", name: "Book"\} matched 3 elements: button "Book", button "Book now", button "Book later"/, 'an ambiguous target lists its candidates');
  t.same(flow.popup, { url: site.url('flows-details.html'), title: 'Trip details' }, 'the popup a {text} click opened');
  t.equal(flow.later, 'later', '{role, name, exact} picked the one button');
  t.equal(flow.booked, 'true', 'onDialog accepted the confirm the exact "Book" button opened');
});

// ----- navigations a click starts ----------------------------------------------------------

for (const [form, method] of [['get', 'GET ?q=paris'], ['post', 'POST rome']]) {
  t.test(`click(submit) then waitForLoad reads the new document (${form.toUpperCase()} form, 20 times)`, async (t) => {
    const reads = await json(t, `
      const reads = [];
      for (let i = 0; i < 20; i++) {
        await gotoUrl(${JSON.stringify(site.url('flows-form.html'))});
        await waitForLoad();
        await click("#${form}-submit");
        const loaded = await waitForLoad();
        reads.push({ loaded, echo: await js("document.getElementById('echo')?.textContent ?? document.title") });
      }
      repl.write(JSON.stringify(reads));`);
    t.same(reads, Array.from({ length: 20 }, () => ({ loaded: true, echo: method })), 'every read saw the answer, never the old form');
  });
}

t.test('Enter in a form and a location change page code schedules count as navigations', async (t) => {
  const reads = await json(t, `
    const reads = [];
    for (let i = 0; i < 5; i++) {
      await gotoUrl(${JSON.stringify(site.url('flows-form.html'))}); await waitForLoad();
      await fillInput("#enter-q", "oslo"); await pressKey("Enter");
      reads.push((await waitForLoad()) && await js("document.getElementById('echo')?.textContent ?? 'stale'"));
      await gotoUrl(${JSON.stringify(site.url('flows-form.html'))}); await waitForLoad();
      await click("#script-nav");
      reads.push((await waitForLoad()) && await js("document.getElementById('echo')?.textContent ?? 'stale'"));
    }
    repl.write(JSON.stringify(reads));`);
  t.same(reads, Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? 'GET ?q=oslo' : 'GET ?q=script')));
});

// ----- downloads ---------------------------------------------------------------------------

t.test('waitForDownload saves the file with its bytes in the REPL\'s folder, nothing under $HOME', async (t) => {
  const homeDownloads = join(homedir(), 'Downloads');
  const before = existsSync(homeDownloads) ? readdirSync(homeDownloads) : [];
  const file = await json(t, `await gotoUrl(${booking}); await waitForLoad(); repl.write(JSON.stringify(await waitForDownload(() => click("#ticket"))))`);
  t.equal(file.suggestedFilename, 'ticket-7.bin');
  t.equal(file.bytes, 4096);
  t.equal(file.url, site.url('download/ticket-7.bin?bytes=4096'));
  t.ok(file.path.startsWith(tmpdir()) && !file.path.startsWith(homedir() + '/'), `saved in the host's temporary folder (${file.path})`);
  t.ok(readFileSync(file.path).equals(downloadBody(4096)), 'the bytes are the ones the server sent');
  const after = existsSync(homeDownloads) ? readdirSync(homeDownloads) : [];
  t.same(after, before, 'nothing new in $HOME/Downloads');

  const unclaimed = await api.repl('await click("#named-download"); for (let i = 0; i < 200 && !(await listDownloads()).some((f) => f.suggestedFilename === "report.csv"); i++) await waitMs(100); repl.write(JSON.stringify(await listDownloads()))', { timeout_sec: 30 });
  t.equal(unclaimed.success, true, unclaimed.error);
  const listed = JSON.parse(writes(unclaimed).at(-1));
  t.same(listed.map((entry) => [entry.suggestedFilename, entry.bytes]), [['ticket-7.bin', 4096], ['report.csv', 64]], 'listDownloads lists both');
  t.match(stderr(unclaimed), /saved a download nobody waited for: .*report\.csv \(64 bytes/, 'the unclaimed download was noted on stderr');

  const none = await api.repl('await waitForDownload(() => click("#book"), { timeoutSec: 0.5 })');
  t.match(none.error, /waitForDownload: no download started on the attached tab within 0\.5s/, 'no download is a clear error');
  await json(t, 'await handleDialog({ accept: false }); repl.write("null")');
  const rejected = await api.repl('await waitForDownload(async () => { throw new Error("action broke") })');
  t.match(rejected.error, /action broke/, 'the action\'s rejection rejects it');
});

t.test('an executor\'s Playwright downloads work, and do not reset a cell\'s own download settings', async (t) => {
  const viaPlaywright = await execute(t, `await page.goto(${booking}); const [download] = await Promise.all([page.waitForEvent("download"), page.click("#ticket")]); const path = await download.path(); return { name: download.suggestedFilename(), bytes: (await import("node:fs")).statSync(path).size }`);
  t.same(viaPlaywright.result, { name: 'ticket-7.bin', bytes: 4096 }, viaPlaywright.error ?? 'Playwright got its download');

  const dir = mkdtempSync(join(tmpdir(), 'chromium-repl-flows-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  await json(t, `await cdp("Browser.setDownloadBehavior", { behavior: "allowAndName", downloadPath: ${JSON.stringify(dir)} }); repl.write("null")`);
  // An executor connects and leaves (its worker is replaced): Chromium resets the download
  // behaviour of every context the leaving connection had set, so it must have set none.
  const connected = await execute(t, 'return page.url()', { executor: 'passing' });
  t.equal(connected.success, true, connected.error ?? 'a new executor connected');
  await api.call('DELETE', '/playwright/executors/passing');
  await api.call('DELETE', '/playwright/executors/default');
  const landed = await json(t, `await gotoUrl(${booking}); await waitForLoad(); await click("#ticket"); const fs = await import("node:fs"); for (let i = 0; i < 200 && fs.readdirSync(${JSON.stringify(dir)}).length === 0; i++) await waitMs(100); repl.write(JSON.stringify(fs.readdirSync(${JSON.stringify(dir)}).length))`);
  t.equal(landed, 1, 'the download went to the folder the cell chose');
  const back = await json(t, `const f = await waitForDownload(() => click("#ticket")); repl.write(JSON.stringify(f.path.startsWith(${JSON.stringify(dir)})))`);
  t.equal(back, false, 'waitForDownload takes downloads back to the REPL folder');
});
