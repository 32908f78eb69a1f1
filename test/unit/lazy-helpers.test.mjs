// worker/helpers/browser-helpers.ts loads the helper modules, and the CDP client, on first use
// (issue 8: a worker's start-up). The wrappers must look and behave like the implementations:
// same name and length, registry order, frozen, synchronous throws kept, nothing created early.
import t from 'tap';
import { BROWSER_HELPER_ORDER } from '../../dist/common/help/help-registry.js';
import { HelperContext } from '../../dist/worker/helpers/helper-context.js';
import { HELPER_LENGTHS, cdpClientClass, createBrowserHelpers, loadHelperImplementations } from '../../dist/worker/helpers/browser-helpers.js';
import { CdpClient } from '../../dist/worker/cdp/cdp-client.js';
import * as accessibility from '../../dist/worker/helpers/interaction/accessibility-snapshot.js';
import * as click from '../../dist/worker/helpers/interaction/click.js';
import * as fill from '../../dist/worker/helpers/interaction/fill-input.js';
import * as keys from '../../dist/worker/helpers/interaction/keys.js';
import * as scroll from '../../dist/worker/helpers/interaction/scroll.js';
import * as waitForElement from '../../dist/worker/helpers/interaction/wait-for-element.js';

/** The interaction modules export `helper(context, ...args)`: a cell sees one parameter fewer. */
const INTERACTION = {
  accessibilitySnapshot: accessibility.accessibilitySnapshot,
  click: click.click,
  typeText: keys.typeText,
  fillInput: fill.fillInput,
  pressKey: keys.pressKey,
  scroll: scroll.scroll,
  waitForElement: waitForElement.waitForElement,
};

/** A client that fails every call: enough to see that the wrappers reach the implementations. */
const refusingClient = () => new Proxy({}, {
  get: (_target, key) => {
    if (key === 'then') return undefined;
    // Helper groups that follow page events subscribe when they load (dialogs, downloads).
    if (key === 'onPageEvent') return () => () => {};
    return () => Promise.reject(Object.assign(new Error(`client.${String(key)} called`), { code: 'TEST_CLIENT' }));
  },
  set: () => true,
});

t.test('wrappers have the implementations\' names and lengths, in registry order, frozen', async (t) => {
  const context = new HelperContext({ client: refusingClient(), note: () => {} });
  const helpers = createBrowserHelpers(context);
  t.ok(Object.isFrozen(helpers));
  t.same(Object.keys(helpers), BROWSER_HELPER_ORDER, 'every registered helper, in order');
  const implementations = loadHelperImplementations(context);
  t.same(Object.keys(HELPER_LENGTHS).sort(), Object.keys(implementations).sort(), 'the length table lists exactly the implementations');
  t.same(Object.keys(HELPER_LENGTHS).sort(), [...BROWSER_HELPER_ORDER].sort(), 'and exactly the registered helpers');
  for (const name of Object.keys(HELPER_LENGTHS)) {
    const wrapper = helpers[name];
    t.equal(wrapper.name, name, `${name}.name`);
    const expected = INTERACTION[name] === undefined ? implementations[name].length : INTERACTION[name].length - 1;
    t.equal(wrapper.length, expected, `${name}.length`);
    t.notOk(Object.hasOwn(wrapper, 'prototype'), `${name} is not a constructor`);
  }
});

t.test('the client is created on first use, by the first helper call', async (t) => {
  let created = 0;
  const context = new HelperContext({ client: () => { created++; return refusingClient(); }, note: () => {} });
  const helpers = createBrowserHelpers(context);
  context.beginCell(Date.now() + 30_000);
  context.endCell();
  t.equal(created, 0, 'creating the helpers and running a cell do not create the client');
  await context.closeClient();
  t.equal(created, 0, 'closing a client that was never created creates none');
  await t.rejects(helpers.cdp('Target.getTargets'), { code: 'TEST_CLIENT' });
  t.equal(created, 1);
  await t.rejects(helpers.gotoUrl('about:blank'), { code: 'TEST_CLIENT' });
  t.equal(created, 1, 'one client for every helper');
  t.equal(cdpClientClass(), CdpClient, 'the lazily loaded class is the module\'s own');
});

t.test('synchronous behaviour is the implementation\'s', async (t) => {
  const context = new HelperContext({ client: refusingClient(), note: () => {} });
  const helpers = createBrowserHelpers(context);
  t.throws(() => helpers.waitForEvent(''), { code: 'REPL_ERR_INVALID_ARGUMENT' }, 'waitForEvent still validates before it returns');
  for (const name of Object.keys(HELPER_LENGTHS)) {
    if (name === 'waitForEvent') continue;
    let result;
    t.doesNotThrow(() => { result = helpers[name](Symbol('not a valid argument')); }, `${name}() with a bad argument`);
    t.ok(result instanceof Promise, `${name}() returns a promise`);
    await result.catch(() => undefined);
  }
});
