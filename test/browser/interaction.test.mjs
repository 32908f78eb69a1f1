// Keyboard, fillInput, typeText, scroll, waits and dialogs against a real headless Chromium,
// through POST /repl on fixture pages. No assertion depends on timing.
import t from 'tap';
import { interactionApi, stderrOf } from '../helpers/interaction-api.mjs';

const page = await interactionApi(t);
const { api, ok, value, failure, open } = page;

const valueOf = (id) => value(`js('document.getElementById(${JSON.stringify(id)}).value')`);
const keydowns = () => value(`js('events.filter((e) => e.type === "keydown").map((e) => ({ key: e.key, code: e.code, shift: e.shift, ctrl: e.ctrl }))')`);

t.test('the helpers are bare globals and browser.* alike, with their help', async (t) => {
  const surface = await value(`({
    same: [click, fillInput, typeText, pressKey, scroll, waitForElement, accessibilitySnapshot].every((f) => browser[f.name] === f),
    names: [click.name, fillInput.name, accessibilitySnapshot.name],
    dispatchKey: typeof dispatchKey,
    help: repl.help('click') === repl.help('browser.click') && repl.help('click').startsWith('click(target, options?)'),
    alias: repl.help('waitForElement').includes('Available as waitForElement(...) and browser.waitForElement(...).'),
  })`);
  t.same(surface, { same: true, names: ['click', 'fillInput', 'accessibilitySnapshot'], dispatchKey: 'undefined', help: true, alias: true });
});

t.test('keyboard', async (t) => {
  t.beforeEach(() => open('interaction-actions.html'));

  t.test('Shift+Digit1 types "!" with the Digit1 code', async (t) => {
    await ok(`await click('#name'); await pressKey('Digit1', ['shift'])`);
    t.equal(await valueOf('name'), '!');
    t.same(await keydowns(), [{ key: '!', code: 'Digit1', shift: true, ctrl: false }]);
  });

  t.test('named keys are case-insensitive, aliases resolve, modifiers come as bitfield, array or object', async (t) => {
    await ok(`await click('#name');
      await pressKey('ENTER'); await pressKey('Esc'); await pressKey('arrowleft');
      await pressKey('a', 8); await pressKey('b', { shift: true }); await pressKey('KeyC', ['SHIFT'])`);
    t.same((await keydowns()).map((e) => [e.key, e.code]), [
      ['Enter', 'Enter'], ['Escape', 'Escape'], ['ArrowLeft', 'ArrowLeft'], ['A', 'KeyA'], ['B', 'KeyB'], ['C', 'KeyC'],
    ]);
    t.equal(await valueOf('name'), 'ABC');
  });

  t.test('Enter in a form field submits the form', async (t) => {
    await ok(`await fillInput('#name', 'Ada'); await pressKey('Enter')`);
    t.equal(await value(`js('submits')`), 1);
  });

  t.test('Ctrl+A then Backspace clears a field', async (t) => {
    await ok(`await fillInput('#name', 'to be cleared'); await pressKey('a', ['Control']); await pressKey('Backspace')`);
    t.equal(await valueOf('name'), '');
  });

  t.test('invalid keys and modifiers fail with the contract messages', async (t) => {
    t.equal((await failure(`await pressKey('a', 'Control')`)).message,
      'pressKey: modifiers must be an array drawn from Alt, Control, Meta, Shift (or an object like {ctrl: true})');
    t.equal((await failure(`await pressKey('a', { bogus: true })`)).message, 'pressKey: unknown modifier: bogus (expected Alt, Control, Meta, or Shift)');
    t.equal((await failure(`await pressKey('a', 16)`)).message, 'pressKey: numeric modifiers must be a bitfield from 0 to 15');
    t.match((await failure(`await pressKey('NoSuchKey')`)).message, /^unknown key: NoSuchKey \(use one Unicode character or a supported US-layout key such as Enter, /);
  });

  t.test('typeText inserts into the focused element without key events', async (t) => {
    await ok(`await click('#notes'); await typeText('inserted ✓')`);
    t.equal(await valueOf('notes'), 'inserted ✓');
    t.same(await keydowns(), []);
    t.equal((await failure(`await typeText(42)`)).message, 'typeText: text must be a string');
  });
});

t.test('fillInput', async (t) => {
  t.beforeEach(() => open('interaction-actions.html'));

  t.test('fills the visible field among hidden duplicates', async (t) => {
    await ok(`await fillInput('.field', 'hello')`);
    t.same(await value(`js('[...document.querySelectorAll(".field")].map((f) => f.value)')`), ['', 'hello']);
  });

  t.test('a controlled input whose input listener reformats the value ends formatted', async (t) => {
    await ok(`await fillInput('#phone', '4155550123')`);
    t.equal(await valueOf('phone'), '(415) 555-0123');
    await ok(`await fillInput('#phone', '2125550199')`);
    t.equal(await valueOf('phone'), '(212) 555-0199', 'clearFirst replaced the formatted value');
    t.ok((await value(`js('events.filter((e) => e.type === "change" && e.id === "phone").length')`)) >= 1, 'change fired');
  });

  t.test('types real key presses with Shift for shifted characters; clearFirst: false appends', async (t) => {
    await ok(`await fillInput('#name', 'Hi!')`);
    t.same((await keydowns()).map((e) => [e.key, e.shift]), [['H', true], ['i', false], ['!', true]]);
    await ok(`await fillInput('#name', ' there', { clearFirst: false })`);
    t.equal(await valueOf('name'), 'Hi! there');
  });

  t.test('insert: true replaces the value with one insertion, without key events', async (t) => {
    await ok(`await fillInput('#name', 'old value')`);
    await ok(`await js('events.length = 0'); await fillInput('#name', 'Zoë inserted', { insert: true })`);
    t.equal(await valueOf('name'), 'Zoë inserted');
    t.same(await keydowns(), [], 'no key was pressed');
    await ok(`await fillInput('#phone', '4155550123', { insert: true })`);
    t.equal(await valueOf('phone'), '(415) 555-0123', 'input listeners still run');
    await ok(`await fillInput('#name', ' more', { insert: true, clearFirst: false })`);
    t.equal(await valueOf('name'), 'Zoë inserted more', 'clearFirst: false appends');
    await ok(`await fillInput('#name', '', { insert: true })`);
    t.equal(await valueOf('name'), '', 'an empty text clears');
    t.equal((await failure(`await fillInput('#name', 'x', { insert: 1 })`)).code, 'REPL_ERR_INVALID_ARGUMENT');
  });

  t.test('characters off the US layout and line breaks are inserted, never pressed as Enter', async (t) => {
    await ok(`await fillInput('#name', 'Zoë 😀 中文\\nend')`);
    t.equal(await valueOf('name'), 'Zoë 😀 中文end');
    t.equal(await value(`js('submits')`), 0, 'the line break did not submit the form');
    await ok(`await fillInput('#notes', 'one\\ntwo\\r\\nthree')`);
    t.equal(await valueOf('notes'), 'one\ntwo\nthree');
  });

  t.test('contenteditable, date inputs and labels', async (t) => {
    await ok(`await fillInput('#editor', 'rich text')`);
    t.equal(await value(`js('document.getElementById("editor").textContent')`), 'rich text');
    await ok(`await fillInput('#when', '2024-02-29')`);
    t.equal(await valueOf('when'), '2024-02-29');
    const rejected = await failure(`await fillInput('#when', 'tomorrow')`);
    t.equal(rejected.code, 'REPL_ERR_INVALID_ARGUMENT');
    t.match(rejected.message, /^fillInput: the date input rejected "tomorrow"/);
    await ok(`await fillInput('label[for="labelled"]', 'via label')`);
    t.equal(await valueOf('labelled'), 'via label');
  });

  t.test('read-only, non-editable and ambiguous targets fail with the contract messages', async (t) => {
    t.equal((await failure(`await fillInput('#readonly', 'x', { timeoutSec: 0 })`)).message,
      'fillInput: selector "#readonly" was not editable within 0s (not editable (read-only))');
    t.equal((await failure(`await fillInput('#submit', 'x', { timeoutSec: 0.1 })`)).message,
      'fillInput: selector "#submit" was not editable within 0.1s (not editable)');
    t.equal((await failure(`await fillInput('.twin', 'x')`)).message,
      'fillInput: selector ".twin" matches 2 visible elements; use a more specific selector');
    t.equal((await failure(`await fillInput('', 'x')`)).message, 'fillInput: selector must be a non-empty string');
    t.equal((await failure(`await fillInput(42, 'x')`)).message, 'fillInput: target must be a selector or accessibility node');
    t.equal((await failure(`await fillInput('#name', 5)`)).message, 'fillInput: text must be a string');
    t.equal((await failure(`await fillInput('#name', 'x', { clearFirst: 'yes' })`)).message, 'fillInput: clearFirst must be a boolean');
    t.equal((await failure(`await fillInput('#name', 'x', { bogus: 1 })`)).message, 'fillInput: unknown option: bogus');
  });
});

t.test('scroll sends one wheel event; a positive dy scrolls down, the default (-300) up', async (t) => {
  await open('interaction-actions.html');
  await ok(`await scroll(100, 100, 600)`);
  const scrolled = await value(`(async () => {
    for (let i = 0; i < 100; i++) { const y = await js('scrollY'); if (y > 0) return y; await waitMs(20); }
    return 0;
  })()`);
  t.ok(scrolled > 0, 'the page scrolled down');
  await ok(`await scroll(100, 100)`);
  const back = await value(`(async () => {
    for (let i = 0; i < 100; i++) { const y = await js('scrollY'); if (y < ${scrolled}) return y; await waitMs(20); }
    return -1;
  })()`);
  t.ok(back >= 0 && back < scrolled, 'the default dy scrolls up');
  t.equal((await failure(`await scroll('a', 1)`)).message, 'scroll: x and y must be finite numbers (viewport CSS pixels)');
  t.equal((await failure(`await scroll(1, 1, NaN)`)).message, 'scroll: dy and dx must be finite numbers');
});

t.test('waitForElement', async (t) => {
  t.beforeEach(() => open('interaction-waits.html'));

  t.test('every state over all matches', async (t) => {
    const states = await value(`(async () => {
      await js('schedule()');
      return {
        visibleNow: await waitForElement('#status'),
        hiddenLater: await waitForElement('#status', { state: 'hidden' }),
        detachedLater: await waitForElement('#remove-me', { state: 'detached' }),
        attachedLater: await waitForElement('#late', { state: 'attached' }),
        hiddenTwinIgnored: await waitForElement('.responsive'),
        notHiddenWhileOneShows: await waitForElement('.responsive', { state: 'hidden', timeoutSec: 0.2 }),
        ghostNeverVisible: await waitForElement('.ghost', { timeoutSec: 0.2 }),
        ghostHidden: await waitForElement('.ghost', { state: 'hidden' }),
        ghostAttached: await waitForElement('.ghost', { state: 'attached' }),
        missingHidden: await waitForElement('#missing', { state: 'hidden' }),
        missingDetached: await waitForElement('#missing', { state: 'detached' }),
        missingAttached: await waitForElement('#missing', { state: 'attached', timeoutSec: 0 }),
      };
    })()`);
    t.same(states, {
      visibleNow: true,
      hiddenLater: true,
      detachedLater: true,
      attachedLater: true,
      hiddenTwinIgnored: true,
      notHiddenWhileOneShows: false,
      ghostNeverVisible: false,
      ghostHidden: true,
      ghostAttached: true,
      missingHidden: true,
      missingDetached: true,
      missingAttached: false,
    });
  });

  t.test('returns false before the cell deadline instead of ending the REPL', async (t) => {
    const first = await api.repl(`repl.write(String(await waitForElement('#never', { timeoutSec: 30 })))`, { timeout_sec: 2 });
    t.equal(first.success, true);
    t.same(first.content.map((item) => item.text), ['false']);
    t.notOk(first.repl_terminated);
    const second = await api.repl('repl.write("alive")');
    t.equal(second.repl_id, first.repl_id, 'the same REPL answers');
  });

  t.test('throws only for contract errors', async (t) => {
    t.equal((await failure(`await waitForElement('#status', { state: 'ready' })`)).message,
      'waitForElement: state must be attached, detached, visible, or hidden');
    t.equal((await failure(`await waitForElement('#status', { timeoutSec: -1 })`)).message,
      'waitForElement: timeoutSec must be a non-negative finite number');
    t.equal((await failure(`await waitForElement('#status', { bogus: 1 })`)).message, 'waitForElement: unknown option: bogus');
    t.equal((await failure(`await waitForElement({ backendNodeId: 0 })`)).message, 'waitForElement: backendNodeId must be a positive integer');
    t.match((await failure(`await waitForElement('[[', { timeoutSec: 0 })`)).message, /^waitForElement: invalid selector "\[\[": /);
  });
});

t.test('dialogs', async (t) => {
  t.beforeEach(() => open('interaction-actions.html'));

  t.test('a click that opens an alert succeeds, notes the way out, and no helper hangs behind it', async (t) => {
    const clicked = await ok(`await click('#dialog-button')`);
    t.match(stderrOf(clicked).join('\n'), /click opened a JavaScript alert dialog \("clicked-alert"\).*cdp\("Page\.handleJavaScriptDialog"/);
    t.same(await value(`pageInfo().then((info) => info.dialog)`), { type: 'alert', message: 'clicked-alert' });
    for (const call of [
      `click('#name')`, `fillInput('#name', 'x')`, `pressKey('a')`, `typeText('x')`, `scroll(10, 10)`,
      `waitForElement('#name')`, `accessibilitySnapshot()`,
    ]) {
      const caught = await failure(`await ${call}`);
      t.equal(caught.code, 'REPL_ERR_DIALOG_OPEN', call);
      t.match(caught.message, /a JavaScript alert dialog is open \("clicked-alert"\).*cdp\("Page\.handleJavaScriptDialog", \{ accept: true \}\)/, call);
    }
    await ok(`await cdp('Page.handleJavaScriptDialog', { accept: true }); await click('#name')`);
    t.equal((await value(`js('clicks')`))['name'], 1, 'helpers work again once the dialog is handled');
  });

  t.test('a dialog that opens while a helper waits ends the wait with the way out', async (t) => {
    const caught = await failure(`await js('setTimeout(() => alert("timer-alert"), 200)'); await waitForElement('#never', { timeoutSec: 20 })`);
    t.equal(caught.code, 'REPL_ERR_DIALOG_OPEN');
    t.match(caught.message, /^waitForElement: a JavaScript alert dialog opened during the call \("timer-alert"\)/);
    await ok(`await cdp('Page.handleJavaScriptDialog', { accept: true })`);
  });
});
