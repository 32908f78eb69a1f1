// A small shop admin on 127.0.0.1 port 0, of the kind agents meet (issue 25): a sign-in form under
// a cookie banner that covers the whole viewport, an orders list rendered by a custom element in
// an open shadow root (pagination, a debounced search), order details in a popup with a CSV
// invoice download, a file input, a payment form in a cross-site iframe (served from `localhost`
// of the same server, which Chromium isolates as another site), a confirm() on cancel, and a page
// tool declared through WebMCP. Pages are test/fixtures/shop/.
//
// The server records every effect it receives, per session cookie, so that a test asserts what
// reached the shop (a payment, an upload, a cancel), not what a tool said it did: `effectsOf(email)`.
// Orders change per session (a cancel in one session is not seen by another).
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';

const PAGES = new URL('../fixtures/shop/', import.meta.url);
const page = (name) => readFileSync(new URL(name, PAGES), 'utf8');

/** Every staff account of the domain signs in with this password. */
export const SHOP_PASSWORD = 'correct horse battery';
export const SHOP_EMAIL_DOMAIN = 'northwind.test';

const CUSTOMERS = [
  'Liam Fischer', 'Sofia Marino', 'Noah Becker', 'Emma Laurent', 'Lucas Novak', 'Mia Kowalski', 'Elias Haddad',
  'Chloe Dubois', 'Mateo García', 'Hannah Weber', 'Ivan Petrov', 'Zoe Papadopoulos', 'Oskar Nilsson', 'Jonas Lindqvist',
  'Lea Schneider', 'Marco Rossi', 'Ines Costa', 'Tomás Silva', 'Nora Berg', 'Felix Wagner', 'Anna Horvath',
  'Yusuf Demir', 'Clara Janssen', 'Leon Meyer', 'Amara Okafor', 'Julia Nowak', 'David Cohen', 'Sara Lind',
  'Paul Martin', 'Elena Popescu', 'Omar Farouk', 'Lina Ahmed', 'Victor Moreau', 'Maja Kristensen', 'Ruben Visser',
];
const PRODUCTS = [
  ['Pour-over kettle', 6490], ['Ceramic dripper', 2450], ['Paper filters (100)', 590], ['Burr hand grinder', 11900],
  ['Milk frother', 3990], ['Glass carafe', 2890], ['Coffee scale', 4590], ['Cold brew bottle', 2190],
  ['Travel mug', 1890], ['Espresso cups (2)', 1650],
];
const STATUS_CYCLE = ['paid', 'shipped', 'open', 'paid', 'shipped', 'cancelled', 'open'];
const STREETS = ['Harbour Road', 'Lindenallee', 'Via Roma', 'Rue des Lilas', 'Kastanjelaan'];

/** The order the task pays (page 3 of the list) and the one it cancels (page 2); both open. */
export const PAY_ORDER_ID = '1011';
export const CANCEL_ORDER_ID = '1022';

const euros = (cents) => (cents / 100).toFixed(2);
const grouped = (cents) => euros(cents).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** The ~35 deterministic orders, newest first (id 1035 on 2026-11-30 down to 1001). */
export const SHOP_ORDERS = CUSTOMERS.map((customer, index) => {
  const id = String(1035 - index);
  const day = new Date(Date.UTC(2026, 10, 30 - index));
  let items = Array.from({ length: 1 + (index % 3) }, (_, k) => {
    const [name, price] = PRODUCTS[(index * 7 + k * 3) % PRODUCTS.length];
    return { name, quantity: 1 + ((index + k) % 2), priceCents: price };
  });
  let status = STATUS_CYCLE[index % STATUS_CYCLE.length];
  if (id === PAY_ORDER_ID) {
    // EUR 218.30, the amount of the payment.
    items = [{ name: 'Espresso grinder', quantity: 1, priceCents: 18900 }, { name: 'Descaling tablets', quantity: 2, priceCents: 1465 }];
    status = 'open';
  }
  if (id === CANCEL_ORDER_ID) status = 'open';
  const totalCents = items.reduce((sum, item) => sum + item.quantity * item.priceCents, 0);
  const first = customer.split(' ')[0].toLowerCase().normalize('NFD').replace(/[^a-z]/g, '');
  return {
    id, customer, status, items, totalCents, total: euros(totalCents),
    date: day.toISOString().slice(0, 10),
    email: `${first}@example.com`,
    address: `${12 + index} ${STREETS[index % STREETS.length]}`,
  };
});

/** The bytes of an order's invoice: a CSV with CRLF line ends, the same on every download. */
export function invoiceCsv(orderId) {
  const order = SHOP_ORDERS.find((candidate) => candidate.id === orderId);
  if (order === undefined) throw new Error(`no order ${orderId}`);
  const rows = [
    'invoice,order,customer,date',
    `INV-${order.id},${order.id},${order.customer},${order.date}`,
    'item,quantity,unit_price_eur,amount_eur',
    ...order.items.map((item) => `${item.name},${item.quantity},${euros(item.priceCents)},${euros(item.quantity * item.priceCents)}`),
    `total,,,${order.total}`,
  ];
  return Buffer.from(`${rows.join('\r\n')}\r\n`, 'utf8');
}

const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
const fill = (template, values) => template.replace(/\{\{(\w+)\}\}/g, (_, key) => values[key] ?? '');

function cookiesOf(request) {
  const cookies = {};
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0) cookies[part.slice(0, at).trim()] = decodeURIComponent(part.slice(at + 1).trim());
  }
  return cookies;
}

/** The parts of a multipart/form-data body: `{ name, filename?, contentType?, data: Buffer }`. */
export function parseMultipart(body, contentType) {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType ?? '');
  if (boundary === null) throw new Error('no multipart boundary');
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts = [];
  let start = body.indexOf(delimiter);
  while (start !== -1) {
    const headerStart = start + delimiter.length;
    if (body.subarray(headerStart, headerStart + 2).toString() === '--') break;
    const headerEnd = body.indexOf('\r\n\r\n', headerStart);
    const next = body.indexOf(delimiter, headerEnd);
    if (headerEnd === -1 || next === -1) throw new Error('a truncated multipart body');
    const headers = body.subarray(headerStart + 2, headerEnd).toString('utf8');
    const disposition = /content-disposition:([^\r\n]*)/i.exec(headers)?.[1] ?? '';
    parts.push({
      name: /\bname="([^"]*)"/.exec(disposition)?.[1],
      filename: /\bfilename="([^"]*)"/.exec(disposition)?.[1],
      contentType: /content-type:\s*([^\r\n]*)/i.exec(headers)?.[1],
      // The part's data ends with the CRLF before the next delimiter.
      data: body.subarray(headerEnd + 4, next - 2),
    });
    start = next;
  }
  return parts;
}

/** Answers after `ms`, like a backend that does some work: a stale read of the old page would show. */
const later = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts the site: `{ origin, frameOrigin, url(path), effectsOf(email), sessions(), reset(), close() }`.
 * `origin` is http://127.0.0.1:<port> (the shop), `frameOrigin` http://localhost:<port> (the payment frame).
 */
export async function startShopSite() {
  const templates = {
    login: page('login.html'), orders: page('orders.html'), order: page('order.html'), pay: page('pay.html'),
    help: page('help.html'), banner: page('banner.html'),
  };
  const statics = {
    '/static/shop.css': ['text/css; charset=utf-8', page('shop.css')],
    '/static/consent.js': ['text/javascript; charset=utf-8', page('consent.js')],
    '/static/order-list.js': ['text/javascript; charset=utf-8', page('order-list.js')],
  };
  /** session id → its state and the effects it caused. */
  const sessions = new Map();
  /** payment token → { sessionId, orderId }: what the payment frame charges. */
  const paymentTokens = new Map();
  /** Sign-in attempts that failed (no session to put them on). */
  let failedLogins = [];
  let port = 0;

  const newEffects = () => ({ logins: [], searches: [], cancels: [], downloads: [], uploads: [], payments: [], notes: [] });
  const statusOf = (session, order) => session.statuses.get(order.id) ?? order.status;
  const ordersOf = (session) => SHOP_ORDERS.map((order) => ({ ...order, status: statusOf(session, order) }));
  const send = (response, status, type, body, headers = {}) => {
    response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers }).end(body);
  };
  const html = (response, status, body, headers) => send(response, status, 'text/html; charset=utf-8', body, headers);
  const json = (response, status, value) => send(response, status, 'application/json', JSON.stringify(value));
  const orderTemplate = (session, order) => {
    const token = `pt_${randomBytes(12).toString('hex')}`;
    paymentTokens.set(token, { sessionId: session.id, orderId: order.id });
    const status = statusOf(session, order);
    return fill(templates.order, {
      id: order.id, customer: escapeHtml(order.customer), email: escapeHtml(order.email), date: order.date, total: order.total,
      address: escapeHtml(order.address), statusLabel: status[0].toUpperCase() + status.slice(1),
      itemRows: order.items.map((item) => `<tr><td>${escapeHtml(item.name)}</td><td>${item.quantity}</td><td>EUR ${euros(item.priceCents)}</td><td>EUR ${euros(item.quantity * item.priceCents)}</td></tr>`).join(''),
      noteItems: (session.notes.get(order.id) ?? []).map((note) => `<li>${escapeHtml(note)}</li>`).join(''),
      paymentUrl: `http://localhost:${port}/pay?token=${token}`,
      paymentOrigin: `http://localhost:${port}`,
    });
  };

  async function shop(request, response, url, body) {
    const path = url.pathname;
    const found = sessions.get(cookiesOf(request).shop_session);
    // A signed-out session keeps its effects (for the assertions) but no longer authenticates.
    const session = found?.signedOut === true ? undefined : found;
    if (request.method === 'GET' && statics[path] !== undefined) return send(response, 200, ...statics[path]);
    if (path === '/favicon.ico') return response.writeHead(204).end();
    if (request.method === 'GET' && path === '/') return html(response, 303, '', { location: session === undefined ? '/login' : '/orders' });
    if (request.method === 'GET' && path === '/login') return html(response, 200, fill(templates.login, { banner: templates.banner }));
    if (request.method === 'POST' && path === '/login') {
      const form = new URLSearchParams(body.toString('utf8'));
      const email = (form.get('email') ?? '').trim().toLowerCase();
      if (!email.endsWith(`@${SHOP_EMAIL_DOMAIN}`) || form.get('password') !== SHOP_PASSWORD) {
        failedLogins.push({ email, at: Date.now() });
        return html(response, 401, fill(templates.login, { banner: templates.banner, error: '<p class="error" role="alert">Wrong email or password.</p>' }));
      }
      const id = randomBytes(16).toString('hex');
      sessions.set(id, { id, email, statuses: new Map(), notes: new Map(), effects: { ...newEffects(), logins: [{ email, at: Date.now() }] } });
      return html(response, 303, '', {
        location: '/orders',
        'set-cookie': [`shop_session=${id}; Path=/; HttpOnly; SameSite=Lax`, `shop_user=${encodeURIComponent(email)}; Path=/; SameSite=Lax`],
      });
    }
    if (request.method === 'GET' && path.startsWith('/help/')) return html(response, 200, fill(templates.help, { title: escapeHtml(path.slice(6).replace(/^\w/, (c) => c.toUpperCase())) }));
    if (session === undefined) {
      if (path.startsWith('/api/') || request.method !== 'GET') return json(response, 401, { error: 'sign in first' });
      return html(response, 303, '', { location: '/login' });
    }
    if (request.method === 'POST' && path === '/logout') {
      session.signedOut = true;
      return html(response, 303, '', { location: '/login', 'set-cookie': 'shop_session=; Path=/; HttpOnly; Max-Age=0' });
    }
    if (request.method === 'GET' && path === '/orders') {
      const orders = ordersOf(session);
      return html(response, 200, fill(templates.orders, {
        banner: templates.banner, email: escapeHtml(session.email), orderCount: String(orders.length),
        openCount: String(orders.filter((order) => order.status === 'open').length),
        revenue: grouped(orders.filter((order) => order.status !== 'cancelled').reduce((sum, order) => sum + order.totalCents, 0)),
      }));
    }
    if (request.method === 'GET' && path === '/api/orders') {
      const query = (url.searchParams.get('q') ?? '').trim().toLowerCase();
      const size = Math.min(50, Math.max(1, Number(url.searchParams.get('size')) || 10));
      if (query !== '') session.effects.searches.push(query);
      const matching = ordersOf(session).filter((order) => query === '' || order.customer.toLowerCase().includes(query) || order.id.includes(query));
      const pages = Math.max(1, Math.ceil(matching.length / size));
      const current = Math.min(pages, Math.max(1, Number(url.searchParams.get('page')) || 1));
      await later(query === '' ? 20 : 80);
      return json(response, 200, {
        page: current, pages, total: matching.length,
        orders: matching.slice((current - 1) * size, current * size).map(({ id, customer, date, status, total }) => ({ id, customer, date, status, total })),
      });
    }
    const match = /^\/(api\/)?orders\/(\d+)(\/[\w.]+)?$/.exec(path);
    const order = SHOP_ORDERS.find((candidate) => candidate.id === match?.[2]);
    if (match === null || order === undefined) return html(response, 404, '<!doctype html><title>Not found</title><p>Not found</p>');
    const [, api, , tail = ''] = match;
    if (!api && request.method === 'GET' && tail === '') return html(response, 200, orderTemplate(session, order));
    if (!api && request.method === 'GET' && tail === '/invoice.csv') {
      const bytes = invoiceCsv(order.id);
      session.effects.downloads.push({ orderId: order.id, bytes: bytes.length });
      return send(response, 200, 'text/csv; charset=utf-8', bytes, { 'content-disposition': `attachment; filename="invoice-${order.id}.csv"`, 'content-length': String(bytes.length) });
    }
    if (!api && request.method === 'POST' && tail === '/receipt') {
      let parts;
      try {
        parts = parseMultipart(body, request.headers['content-type']);
      } catch (error) {
        return json(response, 400, { error: error.message });
      }
      const file = parts.find((part) => part.name === 'receipt' && part.filename !== undefined && part.filename !== '');
      if (file === undefined) return json(response, 400, { error: 'no receipt file in the form' });
      session.effects.uploads.push({ orderId: order.id, filename: file.filename, contentType: file.contentType, data: Buffer.from(file.data) });
      await later(40);
      return json(response, 200, { filename: file.filename, bytes: file.data.length });
    }
    if (api && request.method === 'POST' && tail === '/cancel') {
      if (statusOf(session, order) !== 'open') return json(response, 409, { error: `order ${order.id} is ${statusOf(session, order)}` });
      session.statuses.set(order.id, 'cancelled');
      session.effects.cancels.push({ orderId: order.id });
      await later(40);
      return json(response, 200, { id: order.id, status: 'cancelled' });
    }
    if (api && request.method === 'POST' && tail === '/notes') {
      let note;
      let source;
      try {
        ({ note, source } = JSON.parse(body.toString('utf8')));
      } catch {
        return json(response, 400, { error: 'the body is not JSON' });
      }
      if (typeof note !== 'string' || note.trim() === '') return json(response, 400, { error: 'note must be a non-empty string' });
      session.notes.set(order.id, [...(session.notes.get(order.id) ?? []), note]);
      session.effects.notes.push({ orderId: order.id, note, source: typeof source === 'string' ? source : 'unknown' });
      return json(response, 200, { order_id: order.id, note_id: session.effects.notes.length, note });
    }
    return json(response, 404, { error: `no ${request.method} ${path}` });
  }

  /** The payment provider, on the other site (`localhost`): the form and its charge. */
  async function paymentFrame(request, response, url, body) {
    if (request.method === 'GET' && url.pathname === '/pay') {
      const grant = paymentTokens.get(url.searchParams.get('token') ?? '');
      if (grant === undefined) return html(response, 403, '<!doctype html><title>Payment</title><p>This payment link has expired.</p>');
      const order = SHOP_ORDERS.find((candidate) => candidate.id === grant.orderId);
      return html(response, 200, fill(templates.pay, { amount: order.total, token: url.searchParams.get('token'), shopOrigin: `http://127.0.0.1:${port}` }));
    }
    if (request.method === 'POST' && url.pathname === '/api/pay') {
      let charge;
      try {
        charge = JSON.parse(body.toString('utf8'));
      } catch {
        return json(response, 400, { error: 'the body is not JSON' });
      }
      const grant = paymentTokens.get(charge.token);
      const session = sessions.get(grant?.sessionId);
      if (grant === undefined || session === undefined) return json(response, 403, { error: 'this payment link has expired' });
      const order = SHOP_ORDERS.find((candidate) => candidate.id === grant.orderId);
      if (statusOf(session, order) !== 'open') return json(response, 409, { error: `order ${order.id} is ${statusOf(session, order)}` });
      const receipt = `PAY-${order.id}-${randomBytes(3).toString('hex').toUpperCase()}`;
      session.statuses.set(order.id, 'paid');
      session.effects.payments.push({ orderId: order.id, amount: order.total, amountShown: charge.amount, cardLast4: String(charge.card).slice(-4), expiry: charge.expiry, receipt });
      await later(60);
      return json(response, 200, { amount: order.total, receipt });
    }
    return json(response, 404, { error: `no ${request.method} ${url.pathname} on the payment site` });
  }

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://shop.invalid');
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    try {
      // The two sites are told apart by the Host header, as two virtual hosts of one server.
      if (request.headers.host === `localhost:${port}`) await paymentFrame(request, response, url, body);
      else await shop(request, response, url, body);
    } catch (error) {
      if (!response.headersSent) json(response, 500, { error: String(error?.stack ?? error) });
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  port = server.address().port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    frameOrigin: `http://localhost:${port}`,
    port,
    url: (path) => `${origin}/${path.replace(/^\//, '')}`,
    /** The effects of the latest session that signed in as `email` (undefined if none did). */
    effectsOf(email) {
      const matching = [...sessions.values()].filter((session) => session.email === email.toLowerCase());
      return matching.at(-1)?.effects;
    },
    /** How many sessions signed in as `email` (a run signs in once). */
    sessionsOf: (email) => [...sessions.values()].filter((session) => session.email === email.toLowerCase()).length,
    get failedLogins() {
      return failedLogins;
    },
    reset() {
      sessions.clear();
      paymentTokens.clear();
      failedLogins = [];
    },
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
