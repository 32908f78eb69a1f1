// The readers of issue 25's scripted agent (test/helpers/agent-task.mjs) and the shop site's pure
// parts (test/helpers/shop-site.mjs): a check of the whole-task suite is only as good as the reader
// behind it, so each is shown to catch what the issue saw and to pass what it should pass.
import t from 'tap';
import { activeTab, orderIdNear, ourTabs, reportedPopup, replWordsIn, shopTask } from '../helpers/agent-task.mjs';
import { CANCEL_ORDER_ID, invoiceCsv, parseMultipart, PAY_ORDER_ID, SHOP_ORDERS } from '../helpers/shop-site.mjs';

t.test('replWordsIn flags the REPL\'s words the issue quotes, and nothing in tool words', async (t) => {
  for (const message of [
    'fillInput: backend node 28 was not editable within 30s (intercepted by <div id="cookie-banner">)',
    'a dialog holds the page: handle it with handleDialog({ accept: true }) or cdp("Page.handleJavaScriptDialog", …)',
    'or leave the page with gotoUrl(...)',
    'note: saved a download nobody waited for: /tmp/x/invoice.csv (192 bytes); listDownloads() lists them',
    'handleDialog: no JavaScript dialog is open on the attached page (pageInfo().dialog is null)',
  ]) t.ok(replWordsIn(message).length > 0, message);
  for (const message of [
    'clicked 7 (button "Reject optional")',
    'typing into [1] failed: it is covered by dialog "We value your privacy"; dismiss it with [6] button "Accept all" or [7] button "Reject optional" (browser_click)',
    'a confirm dialog holds the page; answer it with browser_handle_dialog',
    'selected tab 1 (http://127.0.0.1:8080/orders/1011)\n\nPage: Order 1011\nText:\nPay by card',
    'no downloads yet; browser_downloads lists them once saved',
  ]) t.same(replWordsIn(message), [], message);
});

t.test('orderIdNear reads the order number next to a customer, in our text and in Playwright MCP\'s YAML', async (t) => {
  t.equal(orderIdNear('Text added:\n+ #1022 Jonas Lindqvist 2026-11-17 Open EUR 97.80 View Cancel', 'Jonas Lindqvist'), '1022', 'a row on one line');
  t.equal(orderIdNear('#1022\nJonas Lindqvist\n2026-11-17', 'Jonas Lindqvist'), '1022', 'one cell a line');
  t.equal(orderIdNear('- row [ref=e9]:\n  - cell "#1022" [ref=e10]\n  - cell "Jonas Lindqvist" [ref=e11]', 'Jonas Lindqvist'), '1022', 'Playwright MCP\'s cells');
  t.equal(orderIdNear('Dialog: confirm "Cancel order 1022 of Jonas Lindqvist?"', 'Jonas Lindqvist'), undefined, 'not from a sentence without the #number');
  t.equal(orderIdNear('Jonas Lindqvist 2026-11-17', 'Jonas Lindqvist'), undefined, 'not from a date');
  t.equal(orderIdNear('#1035 Liam Fischer', 'Jonas Lindqvist'), undefined, 'not another customer\'s');
});

t.test('reportedPopup needs a line that says a popup opened; the Tabs header is not one', async (t) => {
  t.same(reportedPopup('clicked 65 (button "View order 1022")\n\nPage: Orders\nTabs: [0]* Orders; [1] Order 1022 (browser_tabs selects one)'), { line: undefined, index: undefined });
  t.same(reportedPopup('clicked 65 (button "View order 1022"); it opened a popup in tab 1 (Order 1022)').index, 1);
  t.same(reportedPopup('clicked 74\npopup opened: [2] Order 1011 (select it with browser_tabs)').index, 2);
  t.same(reportedPopup('clicked 74 (button "View order 1011"), which opened a new tab (index 2)').index, 2, 'not the ref of the click');
});

t.test('ourTabs reads the tabs from a snapshot\'s header, or from browser_tabs list', async (t) => {
  const header = 'Page: Orders\nURL: http://127.0.0.1:1/orders\nTabs: [0]* Orders · Shop; [1] Order 1022 · Shop; [2] Order 1011 · Shop (browser_tabs selects one)\nElements (2):';
  t.same(ourTabs(header), [{ index: 0, title: 'Orders · Shop', active: true }, { index: 1, title: 'Order 1022 · Shop', active: false }, { index: 2, title: 'Order 1011 · Shop', active: false }]);
  t.same(ourTabs('0: (active) Orders · Shop http://127.0.0.1:1/orders\n1: Order 1022 · Shop http://127.0.0.1:1/orders/1022'),
    [{ index: 0, title: 'Orders · Shop http://127.0.0.1:1/orders', active: true }, { index: 1, title: 'Order 1022 · Shop http://127.0.0.1:1/orders/1022', active: false }]);
  t.same(activeTab(header), { index: 0, title: 'Orders · Shop', active: true }, 'the active tab is the one marked *');
  t.same(ourTabs('Page: Orders\nElements (0):'), [], 'one tab: no header');
});

t.test('parseMultipart reads the file of a form as the browser sends it, byte for byte', async (t) => {
  const bytes = Buffer.from(Array.from({ length: 600 }, (_, index) => (index * 7) & 0xff));
  const form = new FormData();
  form.append('note', 'hello\r\nworld');
  form.append('receipt', new Blob([bytes], { type: 'application/pdf' }), 'receipt.pdf');
  const request = new Request('http://shop.invalid/', { method: 'POST', body: form });
  const parts = parseMultipart(Buffer.from(await request.arrayBuffer()), request.headers.get('content-type'));
  t.same(parts.map((part) => [part.name, part.filename]), [['note', undefined], ['receipt', 'receipt.pdf']]);
  t.equal(parts[0].data.toString(), 'hello\r\nworld');
  t.equal(parts[1].contentType, 'application/pdf');
  t.ok(parts[1].data.equals(bytes), 'the file\'s bytes, CR and LF bytes included');
  t.throws(() => parseMultipart(Buffer.from('x'), 'multipart/form-data'), /no multipart boundary/);
  t.throws(() => parseMultipart(Buffer.from('--b\r\ncontent-disposition: form-data; name="a"\r\n\r\nno end'), 'multipart/form-data; boundary=b'), /truncated/);
});

t.test('the shop\'s data sets up the task: the order to pay on page 3, the one to cancel on page 2, both open', async (t) => {
  t.equal(SHOP_ORDERS.length, 35);
  const indexOf = (id) => SHOP_ORDERS.findIndex((order) => order.id === id);
  t.equal(Math.floor(indexOf(PAY_ORDER_ID) / 10) + 1, 3);
  t.equal(Math.floor(indexOf(CANCEL_ORDER_ID) / 10) + 1, 2);
  t.match(SHOP_ORDERS[indexOf(PAY_ORDER_ID)], { status: 'open', total: '218.30' });
  t.equal(SHOP_ORDERS[indexOf(CANCEL_ORDER_ID)].status, 'open');
  t.equal(new Set(SHOP_ORDERS.map((order) => order.customer)).size, 35, 'customers are unique, so a name finds one row');
  t.ok(invoiceCsv(PAY_ORDER_ID).equals(invoiceCsv(PAY_ORDER_ID)), 'the invoice is the same bytes each time');
  t.match(invoiceCsv(PAY_ORDER_ID).toString(), /\r\ntotal,,,218\.30\r\n$/);
  const site = { url: (path) => `http://127.0.0.1:1${path}` };
  t.not(shopTask(site, 1).receipt.data.toString('base64'), shopTask(site, 2).receipt.data.toString('base64'), 'each run uploads other bytes');
  t.not(shopTask(site, 1).email, shopTask(site, 2).email, 'and signs in as another staff member');
});
