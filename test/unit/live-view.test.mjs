// The live view's pure parts: the capability (HMAC over browser id, expiry and read-only flag) and
// the input messages a viewer may send, with the CDP commands they become.
import t from 'tap';
import { LiveViewKeys } from '../../dist/lib/live-view/capability.js';
import { imageToPage, inputCommands, LiveViewInputError } from '../../dist/lib/live-view/input.js';

t.test('capabilities: bound to one browser, expiry and read-only flag', async (t) => {
  const keys = new LiveViewKeys('server-token');
  const forever = keys.mint('b1');
  t.match(forever, /^lv1\.0\.w\.[A-Za-z0-9_-]{43}$/);
  t.same(keys.verify(forever, 'b1'), { browserId: 'b1', expiresAt: null, readOnly: false });
  t.equal(keys.verify(forever, 'b2'), undefined, 'another browser: refused');
  t.equal(new LiveViewKeys('other-token').verify(forever, 'b1'), undefined, 'another server key: refused');
  t.equal(keys.verify(forever.replace('.w.', '.r.'), 'b1'), undefined, 'the flag is signed');
  t.equal(keys.verify(`${forever}x`, 'b1'), undefined);
  t.equal(keys.verify(undefined, 'b1'), undefined);
  const now = Date.UTC(2030, 0, 1);
  const soon = keys.mint('b1', { expiresAt: new Date(now + 1500), readOnly: true });
  t.match(keys.verify(soon, 'b1', now), { readOnly: true, expiresAt: new Date(now + 2000) }, 'expiry rounds up to whole seconds');
  t.equal(keys.verify(soon, 'b1', now + 2000), undefined, 'expired');
  t.equal(keys.verify(soon.replace(/\.(\d+)\./, (_, n) => `.${Number(n) + 100}.`), 'b1', now), undefined, 'the expiry is signed');
  const tokenless = new LiveViewKeys(undefined);
  t.equal(new LiveViewKeys(undefined).verify(tokenless.mint('b1'), 'b1'), undefined, 'without a token each process has its own secret');
  t.ok(tokenless.verify(tokenless.mint('b1'), 'b1'));
});

t.test('input messages become CDP Input commands; bad fields are named', async (t) => {
  t.same(inputCommands({ type: 'mouse', event: 'click', x: 10, y: 20 }).map((c) => [c.method, c.params.type, c.params.button, c.params.clickCount]),
    [['Input.dispatchMouseEvent', 'mousePressed', 'left', 1], ['Input.dispatchMouseEvent', 'mouseReleased', 'left', 1]]);
  t.match(inputCommands({ type: 'mouse', event: 'mouseMoved', x: 1, y: 2, buttons: 1 })[0].params, { type: 'mouseMoved', button: 'none', clickCount: 0, buttons: 1 });
  t.match(inputCommands({ type: 'mouse', event: 'mousePressed', x: 1, y: 2, button: 'right', clickCount: 2, modifiers: 8 })[0].params, { button: 'right', clickCount: 2, modifiers: 8 });
  t.match(inputCommands({ type: 'wheel', x: 5, y: 5, deltaY: 120 })[0].params, { type: 'mouseWheel', deltaX: 0, deltaY: 120 });
  t.match(inputCommands({ type: 'key', event: 'keyDown', key: 'a', code: 'KeyA', text: 'a', keyCode: 65 })[0], { method: 'Input.dispatchKeyEvent', params: { type: 'keyDown', text: 'a', unmodifiedText: 'a', windowsVirtualKeyCode: 65 } });
  t.match(inputCommands({ type: 'key', event: 'keyDown', key: 'Backspace', code: 'Backspace', keyCode: 8 })[0].params, { type: 'rawKeyDown', key: 'Backspace' });
  t.notOk('text' in inputCommands({ type: 'key', event: 'keyUp', key: 'a', text: 'a' })[0].params, 'keyUp types nothing');
  t.same(inputCommands({ type: 'insertText', text: 'hello' }), [{ method: 'Input.insertText', params: { text: 'hello' } }]);
  for (const [message, field] of [
    [{ type: 'mouse', event: 'drag', x: 1, y: 1 }, 'event'],
    [{ type: 'mouse', event: 'click', x: -1, y: 1 }, 'x'],
    [{ type: 'mouse', event: 'click', x: 1, y: Number.NaN }, 'y'],
    [{ type: 'mouse', event: 'click', x: 1, y: 1, button: 'thumb' }, 'button'],
    [{ type: 'mouse', event: 'click', x: 1, y: 1, clickCount: 9 }, 'clickCount'],
    [{ type: 'wheel', x: 1, y: 1, deltaY: 'far' }, 'deltaY'],
    [{ type: 'key', event: 'keyPress' }, 'event'],
    [{ type: 'key', event: 'keyDown', text: 'x'.repeat(17) }, 'text'],
    [{ type: 'key', event: 'keyDown', modifiers: 16 }, 'modifiers'],
    [{ type: 'insertText', text: '' }, 'text'],
    [{ type: 'insertText', text: 'x'.repeat(16 * 1024 + 1) }, 'text'],
    [{ type: 'exec' }, 'type'],
  ]) {
    let thrown;
    try { inputCommands(message); } catch (error) { thrown = error; }
    t.ok(thrown instanceof LiveViewInputError, `${JSON.stringify(message).slice(0, 60)}: refused`);
    t.match(thrown?.message, new RegExp(`^${field} `), `${JSON.stringify(message).slice(0, 60)}: names ${field}`);
  }
});

t.test('image fractions map to CSS pixels with the frame metadata', async (t) => {
  t.same(imageToPage(0.5, 0.5, { deviceWidth: 1280, deviceHeight: 720, pageScaleFactor: 1, offsetTop: 0 }), { x: 640, y: 360 });
  t.same(imageToPage(0.5, 0.5, { deviceWidth: 1280, deviceHeight: 720, pageScaleFactor: 2, offsetTop: 0 }), { x: 320, y: 180 }, 'pinch zoom: fewer CSS pixels');
  t.same(imageToPage(0, 0.5, { deviceWidth: 800, deviceHeight: 600, pageScaleFactor: 1, offsetTop: 50 }), { x: 0, y: 250 }, 'content below offsetTop');
  t.same(imageToPage(0, 0, { deviceWidth: 800, deviceHeight: 600, pageScaleFactor: 1, offsetTop: 50 }), { x: 0, y: 0 }, 'never negative');
});

t.test('defaultTab: the tab the default REPL reported attaching wins while it is there and unowned', async (t) => {
  const { defaultTab } = await import('../../dist/lib/live-view/live-view.js');
  const tab = (targetId, owner = 'repl:default', url = `http://127.0.0.1/${targetId}`) => ({ targetId, url, title: targetId, owner });
  const tabs = [tab('A'), tab('B'), tab('C', 'repl:search')];
  t.equal(defaultTab(tabs, undefined), 'A', 'nothing reported, nothing shown: the first unowned web page');
  t.equal(defaultTab(tabs, 'A'), 'A', 'the current tab is kept');
  t.equal(defaultTab(tabs, 'A', 'B'), 'B', 'the REPL switched to B: B, though A is still open');
  t.equal(defaultTab(tabs, 'B', 'C'), 'B', 'a reported tab another owner has is never shown');
  t.equal(defaultTab(tabs, 'A', 'gone'), 'A', 'a reported tab that closed: the current one');
  t.equal(defaultTab([tab('X', 'repl:default', 'chrome://newtab/'), tab('Y')], undefined), 'Y', 'a web page before an internal one');
});
