// The core browser helpers against a real headless Chromium, through the HTTP server, with fixture
// pages on loopback: navigation and pageInfo, waitForLoad after a slow navigation, the js() value
// matrix both ways, screenshots decoded here, raw cdp(), events, dialogs, waits, uploadFile and
// the help entries. Nothing asserts timing; every server started here is closed in a teardown.
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiServer } from '../helpers/api-server.mjs';
import { startFixtureServer } from '../helpers/fixture-server.mjs';
import { decodePng, imageSize } from '../helpers/images.mjs';

const fixtures = await startFixtureServer();
t.teardown(() => fixtures.close());
// cdpEndpoint: null, so a CDP_ENDPOINT in the developer's shell cannot turn this into attach mode.
const api = await apiServer(t, { primaryBrowser: { browser: { cdpEndpoint: null } } });
const dir = mkdtempSync(join(tmpdir(), 'browser-repl-core-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

const ONE_PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** Pages whose responses take time: the document itself, or one image. */
const slow = createServer((request, response) => {
  const { pathname } = new URL(request.url, 'http://slow.invalid');
  const delayed = (ms, send) => setTimeout(send, ms).unref();
  if (pathname === '/slow-image.png') {
    delayed(1200, () => response.writeHead(200, { 'content-type': 'image/png' }).end(ONE_PIXEL_PNG));
  } else if (pathname === '/never.png') {
    // Never answered: keeps the page loading and the network busy until the server closes.
  } else if (pathname === '/slow-doc.html') {
    delayed(800, () => response.writeHead(200, { 'content-type': 'text/html' }).end('<title>Slow document</title><p>late</p>'));
  } else if (pathname === '/image-page.html') {
    response.writeHead(200, { 'content-type': 'text/html' })
      .end('<title>Image page</title><img src="/slow-image.png" onload="window.imageLoaded = true">');
  } else if (pathname === '/link-page.html') {
    response.writeHead(200, { 'content-type': 'text/html' }).end('<title>Link page</title><a id="next" href="/slow-doc.html">next</a>');
  } else if (pathname === '/stuck-page.html') {
    response.writeHead(200, { 'content-type': 'text/html' }).end('<title>Stuck page</title><img src="/never.png">');
  } else {
    response.writeHead(404).end();
  }
});
await new Promise((resolve) => slow.listen(0, '127.0.0.1', resolve));
const slowOrigin = `http://127.0.0.1:${slow.address().port}`;
t.teardown(() => new Promise((resolve) => {
  slow.closeAllConnections();
  slow.close(resolve);
}));

/**
 * Runs one cell (`timeout_sec` 30 unless given). The code is wrapped in a block so that the
 * tests' `const`s do not collide across cells of the shared REPL (`var` still persists).
 */
const cell = (code, extra = {}) => api.repl(`{\n${code}\n}`, { timeout_sec: 30, ...extra });

/** Texts of the write channel. */
const writes = (result) => result.content.filter((item) => item.type === 'text' && item.channel === 'write').map((item) => item.text);

/** Runs a cell that must succeed and returns its write-channel texts. */
async function ok(t, code, extra) {
  const result = await cell(code, extra);
  t.equal(result.success, true, result.error ?? 'cell succeeded');
  return writes(result);
}

/** Runs `code`, which must end by writing one JSON value, and returns it parsed. */
async function json(t, code, extra) {
  const out = await ok(t, code, extra);
  return JSON.parse(out.at(-1));
}

/** Runs `code` expecting it to throw; returns the result. */
async function fails(t, code, pattern, extra) {
  const result = await cell(code, extra);
  t.equal(result.success, false, `fails: ${code.slice(0, 60)}`);
  t.match(result.error, pattern);
  t.notOk(result.repl_terminated, 'the REPL survives');
  return result;
}

const basic = fixtures.url('basic.html');

t.test('gotoUrl and pageInfo', async (t) => {
  const nav = await json(t, `const nav = await gotoUrl(${JSON.stringify(basic)}); repl.write(JSON.stringify(nav));`);
  t.type(nav.frameId, 'string');
  t.type(nav.loaderId, 'string');
  t.notOk(nav.errorText);
  t.equal((await json(t, 'repl.write(JSON.stringify(await waitForLoad()))')), true);

  const info = await json(t, 'repl.write(JSON.stringify(await pageInfo()))');
  t.same(Object.keys(info), ['url', 'title', 'viewport', 'scroll', 'page', 'ready_state', 'dialog'], 'fields in the contract order');
  t.equal(info.url, basic);
  t.equal(info.title, 'Basic fixture');
  t.ok(info.viewport.width > 0 && info.viewport.height > 0);
  t.same(info.scroll, { x: 0, y: 0 });
  t.ok(info.page.width > 0 && info.page.height > 0);
  t.equal(info.ready_state, 'complete');
  t.equal(info.dialog, null);

  t.test('a failed navigation returns errorText and notes it on stderr', async (t) => {
    const result = await cell('repl.write(JSON.stringify(await gotoUrl("http://127.0.0.1:1/")))');
    t.equal(result.success, true);
    t.match(JSON.parse(writes(result)[0]).errorText, /^net::ERR_/);
    t.ok(result.content.some((item) => item.channel === 'stderr' && /^browser-repl: gotoUrl: navigation to http:\/\/127\.0\.0\.1:1\/ failed: net::ERR_/.test(item.text)));
  });

  t.test('validation', async (t) => {
    await fails(t, 'await gotoUrl("")', /^gotoUrl: url must be a non-empty string$/);
    await fails(t, 'await gotoUrl(42)', /^gotoUrl: url must be a non-empty string$/);
  });
});

t.test('waitForLoad', async (t) => {
  await ok(t, `await gotoUrl(${JSON.stringify(basic)}); await waitForLoad();`);

  t.test('after a slow navigation it reports the new document, never the one it replaced', async (t) => {
    const url = `${slowOrigin}/image-page.html`;
    const seen = await json(t, `
      await gotoUrl(${JSON.stringify(url)});
      const loaded = await waitForLoad(20);
      repl.write(JSON.stringify({ loaded, at: await js("[location.href, document.readyState, window.imageLoaded === true]") }));
    `);
    t.same(seen, { loaded: true, at: [url, 'complete', true] });

    const doc = await json(t, `
      await gotoUrl(${JSON.stringify(`${slowOrigin}/slow-doc.html`)});
      repl.write(JSON.stringify([await waitForLoad(20), (await pageInfo()).title]));
    `);
    t.same(doc, [true, 'Slow document']);
  });

  t.test('a navigation it did not start (a clicked link, page code) is waited for too', async (t) => {
    const linkPage = `${slowOrigin}/link-page.html`;
    const triggers = {
      click: 'await click("#next")',
      'page code': 'await js("location.href = \'/slow-doc.html\'")',
    };
    for (const [name, trigger] of Object.entries(triggers)) {
      const seen = await json(t, `
        await gotoUrl(${JSON.stringify(linkPage)});
        await waitForLoad();
        ${trigger};
        const loaded = await waitForLoad(20);
        repl.write(JSON.stringify([loaded, (await pageInfo()).title]));
      `);
      // The slow document answers after 800 ms: until then the link page is still complete.
      t.same(seen, [true, 'Slow document'], name);
    }
  });

  t.test('a page that never finishes loading gives false at the timeout', async (t) => {
    const result = await json(t, `
      await gotoUrl(${JSON.stringify(`${slowOrigin}/stuck-page.html`)});
      repl.write(JSON.stringify([await waitForLoad(0.3), await js("document.readyState")]));
    `);
    t.same(result, [false, 'interactive']);
  });

  t.test('checks at least once, validates, and clamps to the cell deadline', async (t) => {
    await ok(t, `await gotoUrl(${JSON.stringify(basic)}); await waitForLoad();`);
    t.equal(await json(t, 'repl.write(JSON.stringify(await waitForLoad(0)))'), true);
    await fails(t, 'await waitForLoad(NaN)', /^waitForLoad: timeoutSec must be a non-negative finite number$/);
    await fails(t, 'await waitForLoad(-1)', /^waitForLoad: timeoutSec must be a non-negative finite number$/);
    // 60 s asked, 2 s cell: the wait ends (false) before the destructive timeout.
    const result = await cell(`await gotoUrl(${JSON.stringify(`${slowOrigin}/stuck-page.html`)}); repl.write(JSON.stringify(await waitForLoad(60)))`, { timeout_sec: 2 });
    t.equal(result.success, true, result.error);
    t.same(writes(result), ['false']);
    t.notOk(result.repl_terminated);
  });
});

t.test('js value matrix', async (t) => {
  await ok(t, `await gotoUrl(${JSON.stringify(basic)}); await waitForLoad();`);

  t.test('string mode', async (t) => {
    const values = await json(t, `repl.write(JSON.stringify(await Promise.all([
      js("1 + 1"), js("Promise.resolve(3)"), js("document.title"), js("[1, 'a', null, { b: true }]"),
    ])))`);
    t.same(values, [2, 3, 'Basic fixture', [1, 'a', null, { b: true }]]);
    const special = await json(t, `
      const got = [await js("NaN"), await js("-0"), await js("Infinity"), await js("-Infinity"), await js("10n ** 20n"), await js("undefined")];
      repl.write(JSON.stringify([Number.isNaN(got[0]), Object.is(got[1], -0), got[2], got[3], typeof got[4], String(got[4]), got[5] === undefined]));
    `);
    t.same(special, [true, true, null, null, 'bigint', '100000000000000000000', true]);
    t.same(await json(t, 'repl.write(JSON.stringify([await js("1 / 0"), await js("-1 / 0")].map(String)))'), ['Infinity', '-Infinity']);
  });

  t.test('arguments and results keep their exact values both ways', async (t) => {
    const checks = await json(t, `
      // Results are built in the REPL's helper realm, so compare by inspection, which shows
      // -0, NaN, bigint, undefined and holes exactly, rather than by prototype identity.
      const { inspect } = await import("node:util");
      const show = (v) => inspect(v, { depth: null, maxArrayLength: null });
      const sparse = [1, , 3];
      sparse.length = 5;
      const value = {
        big: 12345678901234567890n, negBig: -5n, nan: NaN, inf: Infinity, ninf: -Infinity, nz: -0, undef: undefined, nil: null,
        sparse, nested: { deep: { list: [NaN, -0, 7n, undefined, , "x"], flag: false } }, text: "line\\u2028sep", emptyArray: [], emptyObject: {},
      };
      const back = await js((v) => v, { arg: value });
      const inPage = await js((v) => [
        typeof v.big === "bigint" && v.big === 12345678901234567890n, v.negBig === -5n, Number.isNaN(v.nan), v.inf === Infinity,
        v.ninf === -Infinity, Object.is(v.nz, -0), "undef" in v && v.undef === undefined, v.nil === null, v.sparse.length === 5,
        !(1 in v.sparse) && !(3 in v.sparse), Object.is(v.nested.deep.list[1], -0), v.nested.deep.list[2] === 7n, !(4 in v.nested.deep.list),
        v.text === "line\\u2028sep", Object.getPrototypeOf(v.nested) === Object.prototype,
      ], { arg: value });
      repl.write(JSON.stringify({ roundTrip: show(back) === show(value), holes: !(1 in back.sparse) && back.sparse.length === 5, nz: Object.is(back.nz, -0), inPage }));
    `);
    t.equal(checks.roundTrip, true, 'js((v) => v, {arg}) returns a deep-strict-equal value');
    t.equal(checks.holes, true);
    t.equal(checks.nz, true);
    t.same(checks.inPage, new Array(15).fill(true), 'the page sees the exact values');

    const results = await json(t, `
      const r = await js(() => ({ n: [NaN, -0, Infinity, -Infinity], b: 2n ** 70n, u: undefined, s: [, 1], node: document.body, map: new Map(), fn() {} }));
      repl.write(JSON.stringify([Number.isNaN(r.n[0]), Object.is(r.n[1], -0), r.n[2], r.n[3], String(r.b), "u" in r && r.u === undefined, !(0 in r.s), r.node === undefined, r.map === undefined, r.fn === undefined]));
    `);
    t.same(results, [true, true, null, null, '1180591620717411303424', true, true, true, true, true], 'page function results are exact; no-by-value values are undefined');
    t.equal(await json(t, 'repl.write(JSON.stringify(await js(async ({ a, b }) => a + b, { arg: { a: 2, b: 3 } })))'), 5);
    t.equal(await json(t, 'repl.write(JSON.stringify(await js(function () { return arguments.length; })))'), 0, 'no arg: called without arguments');
    t.equal(await json(t, 'repl.write(JSON.stringify(await js(function () { return arguments.length; }, { arg: undefined })))'), 1, 'arg: undefined is passed');
  });

  t.test('page functions: closures are not captured, method shorthand works, runs exactly once', async (t) => {
    t.equal(await json(t, 'const replOnly = 5; repl.write(JSON.stringify(await js(() => typeof replOnly)))'), 'undefined');
    t.equal(await json(t, 'repl.write(JSON.stringify(await js({ seven() { return 7; } }.seven)))'), 7);
    const counts = await json(t, `
      const once = await js(async () => { window.runs = (window.runs ?? 0) + 1; await new Promise((r) => setTimeout(r, 50)); return window.runs; });
      repl.write(JSON.stringify([once, await js("window.runs")]));
    `);
    t.same(counts, [1, 1]);
  });

  t.test('clear errors', async (t) => {
    await fails(t, 'await js((v) => v, { arg: { f() {} } })', /^js: arg contains unsupported function value$/);
    await fails(t, 'await js((v) => v, { arg: [Symbol("s")] })', /^js: arg contains unsupported symbol value$/);
    await fails(t, 'const c = { a: 1 }; c.self = c; await js((v) => v, { arg: c })', /^js: arg must not contain cycles$/);
    await fails(t, 'class Point { constructor() { this.x = 1; } } await js((v) => v, { arg: new Point() })', /^js: arg must contain only plain objects and arrays$/);
    await fails(t, 'await js((v) => v, { arg: new Date() })', /^js: arg must contain only plain objects and arrays$/);
    await fails(t, 'await js("1", { target: "x" })', /^js: unknown option: target$/);
    await fails(t, 'await js("1", null)', /^js: options must be an object with optional arg and targetId fields$/);
    await fails(t, 'await js("1", { targetId: 5 })', /^js: targetId must be a target id string \(see iframeTarget\/listTabs\)$/);
    await fails(t, 'await js("1", { arg: 1 })', /^js: arg is only supported when evaluating a page function$/);
    await fails(t, 'await js(42)', /^js: expected a JavaScript expression string or page function$/);
    await fails(t, 'await js(Math.max)', /^js: page function is not serializable$/);
    const thrown = await fails(t, 'await js("(() => { throw new TypeError(\\"boom\\"); })()")', /TypeError: boom/);
    t.match(thrown.stack ?? '', /TypeError: boom/);
    await fails(t, 'await js(() => { throw new RangeError("from a function"); })', /RangeError: from a function/);
    await fails(t, 'await js("return 1")', /SyntaxError/);
  });
});

t.test('captureScreenshot', async (t) => {
  await ok(t, `await gotoUrl(${JSON.stringify(fixtures.url('core-tall.html'))}); await waitForLoad();`);
  const { dpr, width, height } = await json(t, 'repl.write(JSON.stringify(await js("({ dpr: devicePixelRatio, width: innerWidth, height: innerHeight })")))');
  const path = (name) => JSON.stringify(join(dir, name));

  t.test('a viewport PNG, emitted with repl.emitImage and decoded here', async (t) => {
    const result = await cell(`const file = await captureScreenshot(${path('view.png')}); repl.write(file); await repl.emitImage({ path: file });`);
    t.equal(result.success, true, result.error);
    t.same(writes(result), [join(dir, 'view.png')], 'resolves the path');
    const image = result.content.find((item) => item.type === 'image');
    t.equal(image.mime_type, 'image/png');
    const png = decodePng(Buffer.from(image.data_b64, 'base64'));
    t.same([png.width, png.height], [Math.round(width * dpr), Math.round(height * dpr)], 'the viewport, in device pixels');
    t.same(png.pixel(5, 5), [255, 0, 0], 'the red band at the top');
  });

  t.test('the default path', async (t) => {
    t.teardown(() => rmSync('/tmp/shot.png', { force: true }));
    t.same(await ok(t, 'repl.write(await captureScreenshot())'), ['/tmp/shot.png']);
  });

  t.test('fullPage captures the whole scroll size', async (t) => {
    const result = await cell(`await repl.emitImage({ path: await captureScreenshot(${path('full.png')}, true) })`);
    t.equal(result.success, true, result.error);
    const png = decodePng(Buffer.from(result.content[0].data_b64, 'base64'));
    t.same([png.width, png.height], [1600 * dpr, 3000 * dpr]);
    t.same(png.pixel(5, 5), [255, 0, 0], 'top band');
    t.same(png.pixel(5, Math.round(2950 * dpr)), [0, 255, 0], 'bottom band, far below the viewport');
    t.same(png.pixel(Math.round(1500 * dpr), Math.round(2950 * dpr)), [0, 255, 0], 'bottom right, beyond the viewport width');
    t.same(png.pixel(Math.round(150 * dpr), Math.round(1520 * dpr)), [0, 0, 255], 'the box in the middle');
  });

  t.test('maxDim scales down to fit, keeping the aspect ratio, and never enlarges', async (t) => {
    const result = await cell(`
      await repl.emitImage({ path: await captureScreenshot(${path('full-small.png')}, true, 600) });
      await repl.emitImage({ path: await captureScreenshot(${path('view-small.png')}, false, 100) });
      await repl.emitImage({ path: await captureScreenshot(${path('view-big.png')}, false, 100000) });
    `);
    t.equal(result.success, true, result.error);
    const [full, view, big] = result.content.map((item) => decodePng(Buffer.from(item.data_b64, 'base64')));
    t.same([full.width, full.height], [320, 600]);
    t.same(full.pixel(2, 597), [0, 255, 0], 'still the full page, scaled');
    t.equal(Math.max(view.width, view.height), 100);
    t.ok(Math.abs(view.width / view.height - width / height) < 0.05, 'aspect ratio kept');
    t.same([big.width, big.height], [Math.round(width * dpr), Math.round(height * dpr)], 'no enlargement');
  });

  t.test('JPEG and WebP with quality, clip and selector regions', async (t) => {
    const result = await cell(`
      const fs = await import("node:fs");
      const sizes = {};
      for (const quality of [5, 95]) sizes[quality] = fs.statSync(await captureScreenshot(${path('q.jpg')}, { quality, fullPage: true })).size;
      repl.write(JSON.stringify(sizes));
      await repl.emitImage({ path: await captureScreenshot({ path: ${path('clip.jpg')}, clip: { x: 100, y: 1500, width: 200, height: 50 }, quality: 90 }) });
      await repl.emitImage({ path: await captureScreenshot({ path: ${path('box.webp')}, selector: "#box" }) });
      await repl.emitImage({ path: await captureScreenshot({ path: ${path('box.png')}, selector: "#box" }) });
      await repl.emitImage({ path: await captureScreenshot({ path: ${path('noext')}, format: "webp", quality: 50 }) });
    `);
    t.equal(result.success, true, result.error);
    const sizes = JSON.parse(writes(result)[0]);
    t.ok(sizes[5] < sizes[95], 'quality changes the JPEG size');
    const images = result.content.filter((item) => item.type === 'image');
    t.same(images.map((item) => item.mime_type), ['image/jpeg', 'image/webp', 'image/png', 'image/webp']);
    const [clip, webp, png, noext] = images.map((item) => imageSize(Buffer.from(item.data_b64, 'base64')));
    t.same([clip.width, clip.height], [200 * dpr, 50 * dpr]);
    t.same([webp.width, webp.height], [200 * dpr, 50 * dpr]);
    const box = decodePng(Buffer.from(images[2].data_b64, 'base64'));
    t.same([box.pixel(0, 0), box.pixel(box.width - 1, box.height - 1)], [[0, 0, 255], [0, 0, 255]], 'exactly the element');
    t.equal(noext.format, 'webp');
  });

  t.test('validation', async (t) => {
    await fails(t, 'await captureScreenshot("/tmp/x.png", false, 0)', /^captureScreenshot: maxDim must be a positive integer$/);
    await fails(t, 'await captureScreenshot("/tmp/x.png", false, 1.5)', /^captureScreenshot: maxDim must be a positive integer$/);
    await fails(t, 'await captureScreenshot("/tmp/x.png", "yes")', /^captureScreenshot: fullPage must be a boolean$/);
    await fails(t, 'await captureScreenshot({ quality: 50 })', /^captureScreenshot: quality applies to jpeg and webp only/);
    await fails(t, 'await captureScreenshot({ path: "/tmp/x.jpg", quality: 101 })', /^captureScreenshot: quality must be an integer from 0 to 100$/);
    await fails(t, 'await captureScreenshot({ path: "/tmp/x.png", format: "jpeg" })', /^captureScreenshot: format "jpeg" does not match the file extension/);
    await fails(t, 'await captureScreenshot({ format: "gif" })', /^captureScreenshot: format must be "png", "jpeg" or "webp"$/);
    await fails(t, 'await captureScreenshot({ bogus: 1 })', /^captureScreenshot: unknown option: bogus$/);
    await fails(t, 'await captureScreenshot({ fullPage: true, selector: "#box" })', /^captureScreenshot: fullPage, clip and selector are mutually exclusive$/);
    await fails(t, 'await captureScreenshot({ selector: "#missing" })', /^captureScreenshot: no element matches selector "#missing"$/);
    await fails(t, 'await captureScreenshot({ clip: { x: 0, y: 0, width: 0, height: 5 } })', /^captureScreenshot: clip must be/);
  });
});

t.test('cdp() raw calls', async (t) => {
  await ok(t, `await gotoUrl(${JSON.stringify(basic)}); await waitForLoad();`);
  const out = await json(t, `
    const page = await cdp("Runtime.evaluate", { expression: "document.title", returnByValue: true });
    const browserLevel = await cdp("Target.getTargets");
    const explicitNull = await cdp("Browser.getVersion", undefined, null);
    const { targetId } = await currentTab();
    const { sessionId } = await cdp("Target.attachToTarget", { targetId, flatten: true });
    const onSession = await cdp("Runtime.evaluate", { expression: "6 * 7", returnByValue: true }, sessionId);
    await cdp("Target.detachFromTarget", { sessionId });
    repl.write(JSON.stringify([page.result.value, browserLevel.targetInfos.some((info) => info.targetId === targetId), typeof explicitNull.product, onSession.result.value]));
  `);
  t.same(out, ['Basic fixture', true, 'string', 42]);
  await fails(t, 'await cdp("Nope.method")', /^CDP Nope\.method failed: .+ \(code -32601\)$/);
  await fails(t, 'await cdp("")', /^cdp: method must be a non-empty string$/);
  await fails(t, 'await cdp("Page.reload", [])', /^cdp: params must be an object$/);
  await fails(t, 'await cdp("Page.reload", {}, 5)', /^cdp: sessionId must be a non-empty string or null$/);
});

t.test('drainEvents and waitForEvent', async (t) => {
  await ok(t, `await gotoUrl(${JSON.stringify(basic)}); await waitForLoad();`);

  t.test('drainEvents returns and clears the buffer', async (t) => {
    const out = await json(t, `
      await drainEvents();
      await cdp("Page.reload");
      await waitForLoad();
      const events = await drainEvents();
      repl.write(JSON.stringify({
        load: events.filter((e) => e.method === "Page.loadEventFired").length,
        shape: Object.keys(events[0]).sort(),
        timeIsWallClock: Math.abs(events[0].time - Date.now()) < 60000,
        again: (await drainEvents()).filter((e) => e.method === "Page.loadEventFired").length,
      }));
    `);
    t.equal(out.load, 1);
    t.same(out.shape, ['method', 'params', 'sessionId', 'time']);
    t.equal(out.timeIsWallClock, true);
    t.equal(out.again, 0);
  });

  t.test('waitForEvent: arm, act, await', async (t) => {
    const out = await json(t, `
      const loaded = waitForEvent("Page.loadEventFired", { timeoutSec: 10 });
      await cdp("Page.reload");
      const event = await loaded;
      const logged = waitForEvent("Runtime.consoleAPICalled", { predicate: (e) => e.params.args[0]?.value === "wanted" });
      await js("console.log('ignored'); console.log('wanted')");
      const console = await logged;
      const { targetId } = await currentTab();
      const attached = waitForEvent("Target.attachedToTarget", { sessionId: null, timeoutSec: 5, predicate: (e) => e.params.targetInfo.targetId === targetId });
      const { sessionId } = await cdp("Target.attachToTarget", { targetId, flatten: true });
      const browserLevel = await attached;
      await cdp("Target.detachFromTarget", { sessionId });
      const missing = await waitForEvent("Never.happens", { timeoutSec: 0.05 });
      repl.write(JSON.stringify([event.method, typeof event.sessionId, console.params.args[0].value, browserLevel.sessionId === undefined, browserLevel.params.sessionId === sessionId, missing]));
    `);
    t.same(out, ['Page.loadEventFired', 'string', 'wanted', true, true, null]);
  });

  t.test('waitForEvent validates synchronously', async (t) => {
    const out = await json(t, `
      const messages = [];
      for (const args of [[""], ["X.y", null], ["X.y", { bogus: 1 }], ["X.y", { predicate: 1 }], ["X.y", { sessionId: "" }], ["X.y", { timeoutSec: -1 }]]) {
        try { waitForEvent(...args); messages.push("no error"); } catch (error) { messages.push(error.message); }
      }
      repl.write(JSON.stringify(messages));
    `);
    t.same(out, [
      'waitForEvent: method must be a non-empty string',
      'waitForEvent: options must be an object',
      'waitForEvent: unknown option: bogus',
      'waitForEvent: predicate must be a function',
      'waitForEvent: sessionId must be a non-empty string or null',
      'waitForEvent: timeoutSec must be a non-negative finite number',
    ]);
    await fails(t, `
      const broken = waitForEvent("Runtime.consoleAPICalled", { predicate: () => { throw new Error("predicate broke"); } });
      await js("console.log('any')");
      await broken;
    `, /^predicate broke$/);
  });
});

t.test('dialogs: reported by pageInfo, no helper hangs behind one', async (t) => {
  // timeout_sec 10: a helper that hung behind the dialog would end in a cell timeout, not in the
  // errors asserted here.
  const opts = { timeout_sec: 10 };
  const dialog = await json(t, `
    await gotoUrl(${JSON.stringify(fixtures.url('dialog.html'))});
    let info = await pageInfo();
    for (let i = 0; i < 100 && !info.dialog; i++) { await waitMs(20); info = await pageInfo(); }
    // The dialog may open just after an evaluation answered: the full shape then carries it too.
    repl.write(JSON.stringify({ url: info.url, title: info.title, dialog: info.dialog }));
  `, opts);
  t.same(dialog, { url: fixtures.url('dialog.html'), title: 'Dialog fixture', dialog: { type: 'alert', message: 'hello-alert' } });

  const wayOut = /cdp\("Page\.handleJavaScriptDialog", \{ accept: true \}\)/;
  for (const code of ['await js("1")', 'await captureScreenshot("/tmp/blocked.png")', 'await waitForLoad(5)', 'await js(() => 1)']) {
    const result = await fails(t, code, /a JavaScript alert dialog is open \("hello-alert"\) and blocks the page/, opts);
    t.match(result.error, wayOut, 'the error names the way out');
  }
  t.same(await json(t, 'repl.write(JSON.stringify((await listTabs()).length > 0))', opts), true, 'browser-level helpers still work');

  const after = await json(t, 'await cdp("Page.handleJavaScriptDialog", { accept: true }); repl.write(JSON.stringify(await pageInfo()))', opts);
  t.equal(after.dialog, null);
  t.equal(after.ready_state, 'complete');

  t.test('confirm and prompt, also when they open during a call', async (t) => {
    const confirm = await json(t, `
      await js("setTimeout(() => { window.answer = confirm('hello-confirm'); }, 50)");
      let info = await pageInfo();
      for (let i = 0; i < 100 && !info.dialog; i++) { await waitMs(20); info = await pageInfo(); }
      await cdp("Page.handleJavaScriptDialog", { accept: false });
      repl.write(JSON.stringify([info.dialog, await js("window.answer")]));
    `, opts);
    t.same(confirm, [{ type: 'confirm', message: 'hello-confirm' }, false]);

    const during = await cell('await js("new Promise((resolve) => setTimeout(() => resolve(window.typed = prompt(\'hello-prompt\')), 50))")', opts);
    t.equal(during.success, false);
    t.match(during.error, /^js: a JavaScript prompt dialog opened during the call \("hello-prompt"\) and blocks the page; handle it with handleDialog\(\{ accept: true \}\) or cdp/);
    const typed = await json(t, `
      const info = await pageInfo();
      await cdp("Page.handleJavaScriptDialog", { accept: true, promptText: "typed text" });
      repl.write(JSON.stringify([info.dialog, await js("window.typed"), (await pageInfo()).dialog]));
    `, opts);
    t.same(typed, [{ type: 'prompt', message: 'hello-prompt' }, 'typed text', null]);
  });

  t.test('gotoUrl leaves a page with an open dialog', async (t) => {
    const out = await json(t, `
      await js("setTimeout(() => alert('leaving'), 20)");
      let info = await pageInfo();
      for (let i = 0; i < 100 && !info.dialog; i++) { await waitMs(20); info = await pageInfo(); }
      await gotoUrl(${JSON.stringify(basic)});
      await waitForLoad();
      repl.write(JSON.stringify([info.dialog.message, (await pageInfo()).title]));
    `, opts);
    t.same(out, ['leaving', 'Basic fixture']);
  });

  t.test('gotoUrl into a page that alerts while it loads returns; pageInfo reports the dialog', async (t) => {
    const alertNow = fixtures.url('core-alert-now.html');
    // Several rounds: the dialog event and the navigation's answer arrive in either order.
    for (let round = 0; round < 5; round++) {
      const out = await json(t, `
        await gotoUrl(${JSON.stringify(basic)});
        await waitForLoad();
        const result = await gotoUrl(${JSON.stringify(alertNow)});
        let info = await pageInfo();
        for (let i = 0; i < 100 && !info.dialog; i++) { await waitMs(20); info = await pageInfo(); }
        await cdp("Page.handleJavaScriptDialog", { accept: true });
        repl.write(JSON.stringify([typeof result.loaderId, info.dialog]));
      `, opts);
      t.same(out, ['string', { type: 'alert', message: 'at once' }], `round ${round}`);
    }
  });

  t.test('gotoUrl away from a page whose beforeunload dialog holds the navigation fails at once', async (t) => {
    const result = await cell(`
      await gotoUrl(${JSON.stringify(fixtures.url('core-beforeunload.html'))});
      await waitForLoad();
      await click("#arm");
      await gotoUrl(${JSON.stringify(basic)});
    `, opts);
    t.equal(result.success, false);
    t.match(result.error, /^gotoUrl: a JavaScript beforeunload dialog opened during the call \(""\) and blocks the page; handle it with handleDialog\(\{ accept: true \}\) or cdp/);
    const out = await json(t, `
      const info = await pageInfo();
      await cdp("Page.handleJavaScriptDialog", { accept: true });
      await waitForLoad();
      repl.write(JSON.stringify([info.dialog.type, (await pageInfo()).title]));
    `, opts);
    t.same(out, ['beforeunload', 'Basic fixture'], 'leaving the page once the dialog is accepted');
  });
});

t.test('waitMs and waitForNetworkIdle', async (t) => {
  await ok(t, 'await waitMs(10); await waitMs(0); await waitMs();');
  await fails(t, 'await waitMs(-1)', /^waitMs: milliseconds must be a non-negative finite number$/);
  await fails(t, 'await waitMs(NaN)', /^waitMs: milliseconds must be a non-negative finite number$/);
  const clamped = await fails(t, 'var survivor = "alive"; await waitMs(5000)', /^waitMs: 5000 ms does not fit in the \d+ ms left before this cell's deadline/, { timeout_sec: 2 });
  t.notOk(clamped.repl_terminated);
  t.same(await ok(t, 'repl.write(survivor)'), ['alive'], 'same REPL, bindings intact');

  await ok(t, `await gotoUrl(${JSON.stringify(basic)}); await waitForLoad();`);
  t.same(await json(t, 'repl.write(JSON.stringify(await waitForNetworkIdle(0.2, 5)))'), true);
  await fails(t, 'await waitForNetworkIdle(NaN)', /^waitForNetworkIdle: idleSec must be a non-negative finite number$/);
  await fails(t, 'await waitForNetworkIdle(0.5, Infinity)', /^waitForNetworkIdle: timeoutSec must be a non-negative finite number$/);
  // Armed first, so the check starts once the never-answered image is surely in flight (a loaded
  // machine may take longer than the idle window to parse up to the <img>).
  const busy = await json(t, `
    const requested = waitForEvent("Network.requestWillBeSent", { timeoutSec: 10, predicate: (e) => e.params.request.url.endsWith("/never.png") });
    await gotoUrl(${JSON.stringify(`${slowOrigin}/stuck-page.html`)});
    await requested;
    repl.write(JSON.stringify(await waitForNetworkIdle(0.1, 0.5)));
  `);
  t.equal(busy, false, 'a request that never finishes keeps the page busy');
});

t.test('uploadFile', async (t) => {
  const a = join(dir, 'a.txt');
  const b = join(dir, 'b.txt');
  writeFileSync(a, 'alpha');
  writeFileSync(b, 'beta');
  await ok(t, `await gotoUrl(${JSON.stringify(fixtures.url('core-upload.html'))}); await waitForLoad();`);
  const changes = await json(t, `
    await uploadFile("#single", ${JSON.stringify(a)});
    await uploadFile("#many", [${JSON.stringify(a)}, ${JSON.stringify(b)}]);
    await uploadFile(".twin", ${JSON.stringify(b)});
    await uploadFile("#late", ${JSON.stringify(a)});
    const doc = await cdp("DOM.getDocument", { depth: 0 });
    const { nodeId } = await cdp("DOM.querySelector", { nodeId: doc.root.nodeId, selector: "#many" });
    const { node } = await cdp("DOM.describeNode", { nodeId });
    await uploadFile({ backendNodeId: node.backendNodeId }, ${JSON.stringify(b)});
    repl.write(JSON.stringify(await js("window.changes")));
  `);
  t.same(changes, [
    { id: 'single', names: ['a.txt'] },
    { id: 'many', names: ['a.txt', 'b.txt'] },
    { id: 'twin', names: ['b.txt'] },
    { id: 'late', names: ['a.txt'] },
    { id: 'many', names: ['b.txt'] },
  ], 'hidden inputs work, a late input is waited for, the visible one of two is chosen');

  await fails(t, `await uploadFile(".ghost", ${JSON.stringify(a)})`, /^uploadFile: selector "\.ghost" matches 2 file inputs; use a more specific selector$/);
  await fails(t, `await uploadFile("#text", ${JSON.stringify(a)})`, /^uploadFile: selector "#text" matches a <input\[type=text\]>, not an <input type=file>$/);
  await fails(t, `await uploadFile("#single", [${JSON.stringify(a)}, ${JSON.stringify(b)}])`, /accepts one file \(no "multiple" attribute\)/);
  await fails(t, `await uploadFile("#nothing", ${JSON.stringify(a)}, { timeoutSec: 0.2 })`, /^uploadFile: no element matches selector: #nothing \(waited 0\.2s\)$/);
  await fails(t, `await uploadFile("#single", ${JSON.stringify(join(dir, 'missing.txt'))})`, /^uploadFile: no such file: /);
  await fails(t, 'await uploadFile("#single", [])', /^uploadFile requires a VM-local file path or a non-empty array of paths$/);
  await fails(t, `await uploadFile("", ${JSON.stringify(a)})`, /^uploadFile: selector must be a non-empty string$/);
  await fails(t, `await uploadFile(42, ${JSON.stringify(a)})`, /^uploadFile: target must be a selector or accessibility node$/);
  await fails(t, `await uploadFile({ backendNodeId: 0 }, ${JSON.stringify(a)})`, /^uploadFile: backendNodeId must be a positive integer$/);
});

t.test('help entries and globals', async (t) => {
  const names = ['cdp', 'drainEvents', 'waitForEvent', 'gotoUrl', 'pageInfo', 'captureScreenshot', 'listTabs', 'currentTab', 'switchTab',
    'newTab', 'closeTab', 'ensureRealTab', 'iframeTarget', 'waitMs', 'waitForLoad', 'waitForNetworkIdle', 'js', 'uploadFile', 'httpGet', 'requestHuman'];
  const out = await json(t, `
    const names = ${JSON.stringify(names)};
    repl.write(JSON.stringify(names.map((name) => [
      typeof globalThis[name] === "function" && globalThis[name] === browser[name],
      repl.help(name).startsWith(name + "("),
      repl.help(name).includes("Available as " + name + "(...) and browser." + name + "(...)."),
      repl.help(name) === repl.help("browser." + name),
    ].every(Boolean))));
  `);
  t.same(out, names.map(() => true));
  const index = await ok(t, 'repl.help()');
  t.match(index[0], /Browser control: cdp, drainEvents, waitForEvent, gotoUrl, pageInfo/);
});
