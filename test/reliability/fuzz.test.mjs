// Hostile input (issue 13): a property-based fuzzer (fast-check) that sends thousands of malformed
// or odd requests to every route of openapi.json, to unknown routes and methods, to /mcp, to the
// streaming variants and to the CDP proxy WebSocket of a real server with real Chromiums, and holds
// the server to its promise: no 5xx, no crash, no hang; every refusal a 4xx JSON `{message, code}`
// (JSON-RPC errors on /mcp) whose message names the problem; and afterwards another user's REPL
// bindings and browser, and Object.prototype of the server's process, are as they were.
//
// FUZZ_RUNS scales the iterations (default 1: about a minute on a loaded machine); FUZZ_SEED
// replays a run (the seed is printed first; a failure prints fast-check's shrunk counterexample).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import fc from 'fast-check';
import WebSocket from 'ws';
import { ERROR_CODES, httpStatusOf } from '../../dist/common/errors.js';
import { apiServer } from '../helpers/api-server.mjs';
import { sendRaw } from '../helpers/fuzz-http.mjs';
import {
  HARMLESS_CODE, PROTO_KEYS, VALUE_OF_TYPE, acceptHeader, contentEncoding, contentType, garbageBody, jsonLeaf, jsonValue,
  oddNumber, oddSegment, oddString, pollutionPayload, typesOf,
} from '../helpers/fuzz-values.mjs';

const SCALE = Number(process.env.FUZZ_RUNS ?? 1);
const SEED = process.env.FUZZ_SEED === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED);
t.comment(`fuzz: seed ${SEED}, scale ${SCALE} (replay with FUZZ_SEED=${SEED} FUZZ_RUNS=${SCALE})`);
const runs = (base) => Math.max(1, Math.round(base * SCALE));

// ----- the server, a bystander and the state that must survive -------------------------------

const root = mkdtempSync(join(tmpdir(), 'browser-repl-fuzz-'));
t.teardown(() => rmSync(root, { recursive: true, force: true }));
// Fixed things inside the fuzzer's folder, so file routes meet a file, a folder and a non-folder parent.
writeFileSync(join(root, 'file'), 'fuzz');
mkdirSync(join(root, 'dir'));

// One browser beyond the default one: every create the fuzzer sends hits the limit (429), none launches.
// The data directory (uploaded extensions, the proxies and profiles it creates) inside the fuzzer's folder, never the user's own.
const api = await apiServer(t, { maxBrowsers: 1, dataDir: join(root, 'data') });
const address = { host: '127.0.0.1', port: api.server.port };

const created = await api.call('POST', '/browsers', { name: 'bystander', timeout_seconds: 3600 });
if (created.status !== 200) throw new Error(`POST /browsers answered ${created.status}: ${created.text}`);
const bystanderId = created.json.session_id;
// Another user's state: a binding in the bystander browser's REPL, and one in a named REPL of the default browser.
const seeded = await api.call('POST', '/browsers/bystander/repl', { code: 'var kept = 41; kept' });
if (seeded.json?.success !== true) throw new Error(`seeding the bystander failed: ${seeded.text}`);
const keeper = await api.call('POST', '/repl', { code: 'var keep = "safe"; keep', repl: 'keeper' });
if (keeper.json?.success !== true) throw new Error(`seeding the keeper failed: ${keeper.text}`);
const knownCellId = keeper.headers['x-cell-id'];

const protoSnapshot = () => [Object.prototype, Array.prototype, Function.prototype, String.prototype]
  .map((proto) => Reflect.ownKeys(proto).map(String).sort().join(','));
const protoBefore = protoSnapshot();

// ----- counting ------------------------------------------------------------------------------

/** family → { requests, serverErrors, closed } */
const tally = new Map();
function count(family, response) {
  const row = tally.get(family) ?? { requests: 0, serverErrors: 0, closed: 0 };
  row.requests += 1;
  if ((response.status ?? 0) >= 500 && family !== 'GET /readyz') row.serverErrors += 1;
  if (response.outcome !== 'answered') row.closed += 1;
  tally.set(family, row);
}

// ----- judging an answer ----------------------------------------------------------------------

const CODES = new Set(Object.keys(ERROR_CODES));

/** Why `response` breaks the contract for `spec`, or undefined when it holds. */
function problemOf(spec, response) {
  if (response.outcome === 'timeout') return 'no answer before the deadline (the server hangs on this request)';
  if (response.outcome !== 'answered') {
    return spec.mayClose ? undefined : `the connection was ${response.outcome} without an answer`;
  }
  const { status } = response;
  // /readyz answers 503 while the server is full or draining: a readiness, not a failure.
  if (status === 503 && spec.readiness === true) {
    return ['full', 'draining'].includes(response.json?.status) ? undefined : `/readyz 503 without a readiness: ${response.body.toString('utf8').slice(0, 200)}`;
  }
  if (status >= 500) return `answered ${status}: ${response.body.toString('utf8').slice(0, 300)}`;
  if (status === 101) return spec.mayUpgrade ? undefined : 'switched protocols unasked';
  if (status < 200 || (status >= 300 && status < 400)) return `unexpected status ${status}`;
  const type = response.headers['content-type'] ?? '';
  if (spec.method === 'HEAD') return undefined;
  if (status >= 400) {
    if (!/application\/json/i.test(type)) return `${status} is not JSON (content-type ${JSON.stringify(type)}): ${response.body.toString('utf8').slice(0, 200)}`;
    if (spec.rpc) return rpcErrorProblem(response.json);
    const { json } = response;
    if (typeof json?.message !== 'string' || json.message === '') return `${status} body has no message: ${response.body.toString('utf8').slice(0, 200)}`;
    if (!CODES.has(json.code)) return `${status} body has code ${JSON.stringify(json.code)}, not one of the registry`;
    if (httpStatusOf(json.code) !== status && !(json.code === 'REPL_ERR_CONFLICT' && status === 409)) {
      return `${json.code} came with status ${status}, the registry says ${httpStatusOf(json.code)}`;
    }
    // Only a body that arrived as sent can be held to naming its field: with a Content-Length that
    // is too short (or too long) the server sees a cut body, and "invalid request body" is right.
    const bodyIntact = spec.framing !== 'short' && spec.framing !== 'long';
    if (status === 400 && bodyIntact && spec.field !== undefined && !json.message.includes(spec.field)) {
      return `400 message ${JSON.stringify(json.message)} does not name the field ${JSON.stringify(spec.field)}`;
    }
    return undefined;
  }
  // 2xx: the request happened to be valid.
  if (!spec.mayBeValid) return `answered ${status} to a request that cannot be valid: ${response.body.toString('utf8').slice(0, 200)}`;
  if (/text\/event-stream/i.test(type)) return spec.rpc ? undefined : streamProblem(response.body.toString('utf8'), spec.unnamedEvents);
  if (response.body.length > 0 && !/json/i.test(type)) {
    if (spec.rawAnswer === false || spec.rawAnswer === undefined) return `2xx body is not JSON (content-type ${JSON.stringify(type)})`;
    // A route that documents other answers (a screenshot, a file, a video) answers one of them.
    const media = type.split(';')[0].trim().toLowerCase();
    if (Array.isArray(spec.rawAnswer) && !spec.rawAnswer.some((documented) => documented === '*/*' || documented === media)) {
      return `2xx content-type ${JSON.stringify(type)} is none of the documented ${spec.rawAnswer.join(', ')}`;
    }
  }
  if (/json/i.test(type) && response.json === undefined && response.body.length > 0) return '2xx body does not parse as JSON';
  return undefined;
}

function rpcErrorProblem(json) {
  // Refusals before any route runs (a malformed request, oversized headers) carry the registry's shape.
  if (typeof json?.message === 'string' && CODES.has(json.code)) return undefined;
  if (json?.jsonrpc !== '2.0' || typeof json.error?.message !== 'string' || !Number.isInteger(json.error?.code)) {
    return `not a JSON-RPC error: ${JSON.stringify(json)?.slice(0, 200)}`;
  }
  return undefined;
}

/**
 * An event stream: every event has a name and one `data:` line of JSON. The telemetry and log
 * streams (`unnamed`) never name their events, as the SDK's contract says (docs/telemetry.md).
 */
function streamProblem(text, unnamed = false) {
  const events = text.split('\n\n').filter((block) => block.trim() !== '' && !block.startsWith(':'));
  for (const block of events) {
    const name = /^event: (.*)$/m.exec(block)?.[1] ?? (unnamed ? 'unnamed' : undefined);
    const data = /^data: (.*)$/m.exec(block)?.[1];
    if (name === undefined || data === undefined) return `malformed event ${JSON.stringify(block.slice(0, 100))}`;
    try { JSON.parse(data); } catch { return `event ${name} data is not JSON`; }
  }
  // Our hang-up after `streamMs` may cut a long stream short, so a missing `result` is not judged.
  return undefined;
}

/**
 * Failures already reported to the owners of files outside this fuzzer's part (issue 13): they are
 * listed as TODO failures at the end instead of stopping the property, so the fuzzer goes on to
 * find the next problem. Remove an entry once its fix has landed; the TODO then shows it passing.
 */
// Findings that belong to another module and are not fixed yet: listed here (with the module), the
// run stays green and reports them as TODO. Empty: every finding so far is fixed.
const KNOWN_ELSEWHERE = [];
const knownSeen = new Map();

/** Sends `spec`, counts it, and throws (for fast-check) when the answer breaks the contract. */
async function check(spec) {
  const response = await sendRaw(address, spec, { deadlineMs: 90_000 });
  count(spec.family, response);
  const problem = problemOf(spec, response);
  if (problem === undefined) return;
  const known = KNOWN_ELSEWHERE.find(({ pattern }) => pattern.test(problem) || pattern.test(`${spec.family}: ${problem}`));
  if (known !== undefined) {
    knownSeen.set(known.owner, knownSeen.get(known.owner) ?? `${spec.method} ${spec.target.slice(0, 120)} ${JSON.stringify(spec.headers ?? {}).slice(0, 200)}`);
    return;
  }
  throw new Error(`${spec.method} ${spec.target.slice(0, 200)}: ${problem}`);
}

/** Runs a property and reports fast-check's shrunk counterexample (with the seed) as the failure. */
async function fuzz(t, name, arbitrary, numRuns) {
  const details = await fc.check(fc.asyncProperty(arbitrary, check), { numRuns, seed: SEED, endOnFailure: false });
  if (details.failed) t.fail(`${name}\n${fc.defaultReportMessage(details)}\n${details.errorInstance?.message ?? ''}`);
  else t.pass(`${name}: ${details.numRuns} cases held`);
}

// ----- requests generated from openapi.json ---------------------------------------------------

const openapi = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'));
function resolve(node) {
  let current = node ?? {};
  while (current.$ref !== undefined) current = current.$ref.slice(2).split('/').reduce((at, key) => at[key], openapi);
  return current;
}

/** Valid, harmless bodies of each request schema: the fuzzer breaks one thing in them at a time. */
const BASE_BODIES = {
  BrowserReplRequest: { code: '1+1', timeout_sec: 10, reset: false, repl: 'fuzz-a' },
  ReplEnvRequest: { env: { FUZZ_A: 'x' } },
  ExecutePlaywrightRequest: { code: 'return 1', executor: 'fuzz-a', timeout_sec: 10 },
  // An interrupt stops at most a fuzz cell; bindings survive interrupts, so a bystander's too.
  ReplInterruptRequest: { repl: 'fuzz-a', cell_id: knownCellId },
  PlaywrightInterruptRequest: { executor: 'fuzz-a' },
  WebMcpInvokeRequest: { tool_ref: 'no-such-tool', input: {}, timeout_sec: 5 },
  BrowserCreateRequest: { name: 'fuzz-new', headless: true, timeout_seconds: 60, viewport: { width: 800, height: 600 }, tags: { a: 'b' }, extensions: [] },
  BrowserUpdateRequest: { name: 'fuzz-renamed', tags: { a: 'b' } },
  ProfileCreateRequest: { name: 'fuzz-profile' },
  ProfileUpdateRequest: { name: 'fuzz-profile-renamed' },
  ProcessExecRequest: { command: 'true', args: ['x'], cwd: root, env: { FUZZ_A: '1' }, timeout_sec: 5, as_user: null, as_root: null },
  // An inert command that exits at once; the routes of one process_id only ever find fuzzed ids.
  ProcessSpawnRequest: { command: 'true', args: ['x'], cwd: root, env: { FUZZ_A: '1' }, timeout_sec: 5, as_user: null, as_root: null, allocate_tty: false, cols: null, rows: null },
  ProcessStdinRequest: { data_b64: 'aGk=' },
  ProcessKillRequest: { signal: 'TERM' },
  ProcessResizeRequest: { cols: 80, rows: 24 },
  FsPathRequest: { path: `${root}/nope` },
  FsCreateDirectoryRequest: { path: `${root}/made`, mode: '755' },
  FsMoveRequest: { src_path: `${root}/nope`, dest_path: `${root}/nope2` },
  // No owner or group: a chown the fuzzer makes up could hand its folder to someone else.
  FsSetFilePermissionsRequest: { path: `${root}/file`, mode: '644' },
  // Each valid start is a watch until the server closes; past files.maxWatches they answer 409.
  FsWatchStartRequest: { path: `${root}/dir`, recursive: false },
  LiveViewRequest: { ttl_seconds: 60, read_only: true },
  ReplayStartRequest: { framerate: 5, max_duration_in_seconds: 2 },
  // Input to the fuzz browser's blank tab: a corner click, a Shift tap, one letter; nothing that waits long.
  ComputerClickMouseRequest: { x: 5, y: 5, button: 'left', click_type: 'click', num_clicks: 1, hold_keys: ['shift'] },
  ComputerMoveMouseRequest: { x: 10, y: 10, smooth: false, duration_ms: 10, hold_keys: [] },
  ComputerDragMouseRequest: { path: [[1, 1], [3, 3]], button: 'left', delay: 0, smooth: false, steps_per_segment: 2, step_delay_ms: 0, duration_ms: 10, hold_keys: [] },
  ComputerScrollRequest: { x: 5, y: 5, delta_x: 0, delta_y: 1, hold_keys: [] },
  ComputerTypeTextRequest: { text: 'a', delay: 0 },
  ComputerPressKeyRequest: { keys: ['Shift'], duration: 0, hold_keys: [] },
  ComputerScreenshotRequest: { region: { x: 0, y: 0, width: 10, height: 10 } },
  ComputerClipboardWriteRequest: { text: 'fuzz' },
  ComputerCursorRequest: { hidden: true },
  ComputerBatchRequest: { actions: [{ type: 'sleep', sleep: { duration_ms: 1 } }, { type: 'move_mouse', move_mouse: { x: 2, y: 2 } }] },
  // The server's own probe: the browser's request reaches a target that answers at once.
  BrowserCurlRequest: { url: `${api.url}/healthz`, method: 'GET', headers: { 'x-fuzz': '1' }, response_encoding: 'utf8', timeout_ms: 20_000 },
  // A proxy that nothing connects to (port 9, discard): the check routes only ever find fuzzed ids.
  ProxyCreateRequest: { type: 'custom', name: 'fuzz', protocol: 'http', config: { host: '127.0.0.1', port: 9, username: 'fuzz', password: 'fuzz-pass' }, bypass_hosts: ['<-loopback>'] },
  ProxyUpdateRequest: { name: 'fuzz-renamed' },
  ProxyCheckRequest: { url: `${api.url}/healthz` },
  // Pools of size 0 launch nothing; acquire waits at most a second.
  BrowserPoolCreateRequest: { name: 'fuzz-pool', size: 0 },
  BrowserPoolUpdateRequest: { size: 0 },
  BrowserPoolDeleteRequest: { force: false },
  BrowserPoolAcquireRequest: { acquire_timeout_seconds: 1 },
  BrowserPoolReleaseRequest: { session_id: 'fuzz-none', reuse: false },
};

/**
 * Odd values of the fields' own type that stay harmless whatever the route does with them: paths
 * stay inside the fuzzer's folder (never `..`, never the folder itself), commands are inert.
 */
const insidePath = fc.constantFrom(`${root}/nope`, `${root}/file`, `${root}/dir`, `${root}/file/child`, `${root}/dir/`, `${root}/${'a'.repeat(300)}`,
  `${root}/\u0000x`, `${root}/é€😀`, `${root}//double`, `${root}/./dot`, 'relative', '', 'file:///etc', '~/x', ' ');
const SAME_TYPE = {
  code: fc.constantFrom(...HARMLESS_CODE),
  path: insidePath, src_path: insidePath, dest_path: insidePath, cwd: insidePath,
  command: fc.constantFrom('true', 'echo', 'no-such-command-fuzz', '', ' ', './no-such', `${root}/file`, `${root}/dir`, '\u0000', 'a'.repeat(5000)),
  repl: fc.constantFrom('', 'a b', 'a'.repeat(65), '../x', '\u0000', 'fuzz-a', 'default'),
  executor: fc.constantFrom('', 'a b', 'a'.repeat(65), '../x', '\u0000', 'fuzz-a'),
  name: fc.constantFrom('', 'default', '-x', 'a'.repeat(65), 'a b', '\u0000', 'fuzz-renamed'),
  mode: fc.oneof(oddString, fc.constantFrom('777', '4755', '0000', '8', '-1', '0o755')),
  env: fc.dictionary(fc.constantFrom('', '1A', 'A-B', 'A B', '\u0000', 'CDP_ENDPOINT', 'NODE_OPTIONS', 'BROWSER_REPL_X', 'a'.repeat(300), '__proto__', 'FUZZ_B'), oddString, { maxKeys: 3 }),
  timeout_sec: oddNumber, timeout_seconds: oddNumber, ttl_seconds: oddNumber, framerate: oddNumber, max_duration_in_seconds: oddNumber,
  cols: oddNumber, rows: oddNumber, data_b64: oddString, signal: fc.constantFrom('', 'SIGTERM', 'term', 'STOP', 'KILL', '9'),
  tool_ref: oddString,
  cell_id: oddString,
  as_user: fc.constantFrom('', 'root', 'nobody', '0', '0:0', '65534', 'a:b:c', '\u0000'),
  start_url: oddString,
};

/** One field changed, one field added, a prototype key, a required field removed, or a body that is not JSON. */
function bodyArbitrary(schemaName) {
  const schema = resolve({ $ref: `#/components/schemas/${schemaName}` });
  const base = BASE_BODIES[schemaName];
  const fields = Object.keys(schema.properties ?? {});
  const wrongType = fc.constantFrom(...fields).chain((field) => {
    const allowed = typesOf(schema.properties[field], resolve);
    const others = Object.keys(VALUE_OF_TYPE).filter((type) => !allowed.includes(type) && !(type === 'integer' && allowed.includes('number')));
    return fc.constantFrom(...others).chain((type) => VALUE_OF_TYPE[type]).map((value) => ({
      body: JSON.stringify({ ...base, [field]: value }), field, mayBeValid: false,
    }));
  });
  const oddFields = fields.filter((field) => SAME_TYPE[field] !== undefined);
  const sameType = oddFields.length === 0 ? [] : [fc.constantFrom(...oddFields).chain((field) =>
    SAME_TYPE[field].map((value) => ({ body: JSON.stringify({ ...base, [field]: value }), field: undefined, mayBeValid: true })))];
  const extra = fc.tuple(oddString.filter((key) => !fields.includes(key) && key !== ''), jsonValue).map(([key, value]) => ({
    body: JSON.stringify({ ...base, [key]: value }), field: undefined, mayBeValid: false,
  }));
  const proto = fc.tuple(fc.constantFrom(...PROTO_KEYS), pollutionPayload).map(([key, payload]) => ({
    // Written as text: JSON.stringify would drop a `__proto__` key set through an object literal.
    body: `${JSON.stringify(base).slice(0, -1)},"${key}":${payload}}`, field: key, mayBeValid: false,
  }));
  const required = schema.required ?? [];
  const missing = required.length === 0 ? [] : [fc.constantFrom(...required).map((field) => {
    const { [field]: _dropped, ...rest } = base;
    return { body: JSON.stringify(rest), field, mayBeValid: false };
  })];
  const objectFields = fields.filter((field) => typeof base[field] === 'object' && base[field] !== null);
  const nested = objectFields.length === 0 ? [] : [fc.constantFrom(...objectFields).chain((field) =>
    fc.tuple(oddString, jsonValue).map(([key, value]) => ({
      body: JSON.stringify({ ...base, [field]: Array.isArray(base[field]) ? [...base[field], value] : { ...base[field], [key]: value } }),
      field: undefined, mayBeValid: true,
    })))];
  const garbage = garbageBody.map((body) => ({ body, field: undefined, mayBeValid: false, garbage: true }));
  const notObject = fc.oneof(jsonLeaf, fc.array(jsonValue, { maxLength: 3 })).map((value) => ({ body: JSON.stringify(value), field: 'body', mayBeValid: false }));
  return fc.oneof(
    { arbitrary: wrongType, weight: 5 }, ...sameType.map((arbitrary) => ({ arbitrary, weight: 3 })), { arbitrary: extra, weight: 2 }, { arbitrary: proto, weight: 2 },
    ...missing.map((arbitrary) => ({ arbitrary, weight: 2 })), ...nested.map((arbitrary) => ({ arbitrary, weight: 1 })),
    { arbitrary: garbage, weight: 3 }, { arbitrary: notObject, weight: 1 },
  );
}

/** Path parameter values as sent: ids that exist, ids that do not, and odd encodings. */
function paramArbitrary(name, method) {
  const existing = {
    // The bystander is only ever read: the fuzzer must not delete or rename another user's browser.
    id_or_name: method === 'GET' ? ['default', 'bystander', bystanderId] : ['default'],
    cell_id: [knownCellId],
    name: ['fuzz-a', 'default'],
  }[name] ?? [];
  return fc.oneof(
    { arbitrary: fc.constantFrom(...existing, 'no-such-thing'), weight: 3 },
    { arbitrary: fc.uuid(), weight: 1 },
    { arbitrary: oddSegment, weight: 4 },
  );
}

/** Query strings of the routes that take them, sometimes repeated or bracketed. */
function queryArbitrary(operation) {
  const names = operation.params.filter((param) => param.in === 'query').map((param) => param.name);
  if (names.length === 0) return fc.constant('');
  const pathValue = fc.oneof(insidePath.map(encodeURIComponent), oddSegment);
  const value = (name) => (name === 'path' ? pathValue : fc.oneof(oddSegment, fc.constantFrom('1', '0', 'true', 'false', '100', '101', 'active', 'all', '-1', '1e3')));
  const pair = fc.constantFrom(...names, `${names[0]}[]`, `${names[0]}[a]`, 'tags[a]', '__proto__[x]', 'unknown').chain((name) =>
    value(name.replace(/\[.*$/, '')).map((v) => `${name}=${v}`));
  return fc.array(pair, { minLength: 0, maxLength: 3 }).map((pairs) => (pairs.length === 0 ? '' : `?${pairs.join('&')}`));
}

/** Every route: path × method of openapi.json, except /mcp and the CDP upgrade (properties of their own). */
const operations = [];
for (const [template, item] of Object.entries(openapi.paths)) {
  if (template === '/mcp') continue;
  for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
    const operation = item[method];
    if (operation === undefined) continue;
    const schemaRef = operation.requestBody?.content?.['application/json']?.schema?.$ref;
    operations.push({
      template,
      method: method.toUpperCase(),
      schemaName: schemaRef?.split('/').pop(),
      rawBody: operation.requestBody?.content?.['application/octet-stream'] !== undefined,
      // The media types its 2xx answers document besides JSON and SSE (a PNG, a file, a video).
      rawTypes: Object.entries(operation.responses ?? {}).filter(([status]) => status.startsWith('2'))
        .flatMap(([, answer]) => Object.keys(answer.content ?? {})).filter((media) => !/json|event-stream/.test(media)),
      params: [...(item.parameters ?? []), ...(operation.parameters ?? [])].map(resolve),
    });
  }
}

/** How the body travels: mostly plain, sometimes chunked, lying about its length, or cut off. */
const framing = fc.oneof(
  { arbitrary: fc.constant({}), weight: 12 },
  { arbitrary: fc.constant({ framing: 'chunked' }), weight: 3 },
  { arbitrary: fc.constantFrom({ framing: 'short', mayClose: true }, { framing: 'long', mayClose: true }), weight: 1 },
  { arbitrary: fc.integer({ min: 1, max: 200 }).map((cutAfter) => ({ cutAfter, mayClose: true })), weight: 1 },
  { arbitrary: fc.constant({ cutOnResponse: true, mayClose: true }), weight: 1 },
);

function operationArbitrary(operation) {
  const paramNames = [...operation.template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
  const params = fc.tuple(...paramNames.map((name) => paramArbitrary(name, operation.method)));
  const body = operation.schemaName !== undefined
    ? bodyArbitrary(operation.schemaName)
    : operation.rawBody
      ? fc.uint8Array({ maxLength: 256 }).map((bytes) => ({ body: Buffer.from(bytes), mayBeValid: true }))
      : fc.oneof(fc.constant({ body: undefined, mayBeValid: true }), garbageBody.map((bytes) => ({ body: bytes, mayBeValid: true })));
  const streams = /\/(repl|playwright\/execute)$/.test(operation.template);
  // The telemetry and log streams follow until the client goes: read briefly, then hang up.
  const endless = /\/(telemetry|logs)\/stream$|\/fs\/watch\/\{watch_id\}\/events$/.test(operation.template);
  // A spawned process's output stream names no events either (the SDK's framing), and it ends at the exit.
  const unnamed = endless || /\/process\/\{process_id\}\/stdout\/stream$/.test(operation.template);
  return fc.record({
    params, body, query: queryArbitrary(operation), framing,
    type: operation.rawBody ? fc.constantFrom('application/octet-stream', 'application/json', undefined) : contentType,
    accept: streams ? acceptHeader : fc.constantFrom(undefined, 'application/json', '*/*'),
    encoding: contentEncoding,
  }).map(({ params: values, body: generated, query, framing: frame, type, accept, encoding }) => {
    let index = 0;
    const path = operation.template.replace(/\{(\w+)\}/g, () => values[index++]);
    const headers = {};
    if (type !== undefined) headers['content-type'] = type;
    if (accept !== undefined) headers.accept = accept;
    if (encoding !== undefined && generated.body !== undefined) headers['content-encoding'] = encoding;
    const odd = values.some((value) => !/^[\w-]+$/.test(value)) || type !== 'application/json' || encoding !== undefined;
    return {
      family: `${operation.method} ${operation.template}`,
      method: operation.method,
      target: `${path}${query}`,
      headers,
      body: generated.body,
      ...frame,
      // Field naming is checked only when the body is the one thing wrong with the request.
      field: odd || query !== '' ? undefined : generated.field,
      mayBeValid: true,
      // A file's bytes, a screenshot, the Prometheus exposition: what openapi.json documents for it.
      rawAnswer: operation.rawTypes.length > 0 ? operation.rawTypes : false,
      readiness: operation.template === '/readyz',
      unnamedEvents: unnamed,
      streamMs: endless ? 300 : 20_000,
    };
  });
}

const restRequest = fc.oneof(...operations.map(operationArbitrary));

const unknownRequest = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'PROPFIND', 'MKCOL', 'LOCK', 'PURGE', 'SEARCH', 'TRACE', 'REPORT', 'COPY', 'MOVE', 'FOO', 'get'),
  path: fc.oneof(
    fc.constantFrom('/', '//', '/repl/', '/REPL', '/repl/results', '/browsers/default/', '/browsers//repl', '/repls/', '/fs', '/mcp/x', '/healthz/x',
      '/%2e%2e/repl', '/repl%00', '/repl;x', '/repl/../repl', '*', '/browsers/default/browsers/default/repl', `/${'a'.repeat(8000)}`),
    fc.array(oddSegment, { minLength: 1, maxLength: 4 }).map((segments) => `/${segments.join('/')}`),
    fc.webPath().map((path) => (path.startsWith('/') ? path : `/${path}`)),
  ),
  body: fc.option(garbageBody, { nil: undefined }),
}).map(({ method, path, body }) => ({
  family: 'unknown routes and methods', method, target: path, headers: { 'content-type': 'application/json' }, body,
  // A route that does exist may well answer 2xx (GET / of a documented path written oddly).
  mayBeValid: true, mayClose: method === 'FOO' || method === 'get', rawAnswer: method === 'OPTIONS',
}));

// ----- /mcp ------------------------------------------------------------------------------------

const MCP_ACCEPT = 'application/json, text/event-stream';
async function initializeMcp() {
  const response = await sendRaw(address, {
    method: 'POST', target: '/mcp',
    headers: { 'content-type': 'application/json', accept: MCP_ACCEPT },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } }),
  }, { deadlineMs: 30_000 });
  const id = response.headers?.['mcp-session-id'];
  if (id === undefined) throw new Error(`initialize failed: ${response.status} ${response.body?.toString()}`);
  await sendRaw(address, {
    method: 'POST', target: '/mcp', headers: { 'content-type': 'application/json', accept: MCP_ACCEPT, 'mcp-session-id': id },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  return id;
}
const mcpSession = await initializeMcp();

const TOOL_NAMES = ['no_such_tool', 'browser_snapshot', 'browser_tabs', 'browser_repl', 'execute_playwright_code', 'browser_find', 'webmcp_list_tools', 'browser_downloads', 'browser_press_key', '', '__proto__'];
const toolArgument = fc.oneof(jsonLeaf, fc.constantFrom(...HARMLESS_CODE), fc.constantFrom('default', 'nope', 'fuzz-a'));
const rpcMessage = fc.record({
  jsonrpc: fc.constantFrom('2.0', '2.0', '2.0', '1.0', 2, null),
  id: fc.oneof(fc.constantFrom(1, 0, -1, 'x', null, 1e308, 2 ** 53 + 1, 'i'.repeat(10_000), true), fc.array(jsonLeaf, { maxLength: 2 }), fc.integer()),
  method: fc.constantFrom('initialize', 'tools/list', 'tools/call', 'ping', 'notifications/initialized', 'resources/list', 'prompts/list', 'logging/setLevel', 'completion/complete', '', 'rpc.x', '__proto__'),
  params: fc.oneof(
    jsonValue,
    fc.record({ name: fc.constantFrom(...TOOL_NAMES), arguments: fc.oneof(fc.dictionary(fc.constantFrom('code', 'browser', 'repl', 'timeout_sec', 'ref', 'key', 'x', '__proto__'), toolArgument, { maxKeys: 3 }), jsonValue) }),
  ),
}, { requiredKeys: [] });
const mcpRequest = fc.record({
  body: fc.oneof(
    { arbitrary: rpcMessage.map((message) => JSON.stringify(message)), weight: 6 },
    { arbitrary: fc.array(rpcMessage, { maxLength: 4 }).map((batch) => JSON.stringify(batch)), weight: 2 },
    { arbitrary: garbageBody, weight: 2 },
    { arbitrary: pollutionPayload, weight: 1 },
  ),
  session: fc.constantFrom(undefined, mcpSession, mcpSession, 'nope', '', 'a'.repeat(4000), `${mcpSession} `, '../x', mcpSession.toUpperCase()),
  accept: fc.constantFrom(undefined, MCP_ACCEPT, MCP_ACCEPT, 'application/json', 'text/event-stream', '*/*', 'text/html'),
  type: fc.constantFrom('application/json', 'application/json', 'text/plain', undefined, 'application/json; charset=utf-16'),
  version: fc.constantFrom(undefined, undefined, '2025-06-18', '1999-01-01', 'x'),
  method: fc.constantFrom('POST', 'POST', 'POST', 'POST', 'GET', 'DELETE', 'PUT', 'PATCH'),
  frame: framing,
}).map(({ body, session, accept, type, version, method, frame }) => {
  const headers = {};
  if (session !== undefined) headers['mcp-session-id'] = session;
  if (accept !== undefined) headers.accept = accept;
  if (type !== undefined) headers['content-type'] = type;
  if (version !== undefined) headers['mcp-protocol-version'] = version;
  // DELETE with the real session would end it for every later case: only other ids are deleted.
  // (HTTP trims header values, so the id with a trailing space is the same session.)
  if (method === 'DELETE' && session?.trim() === mcpSession) delete headers['mcp-session-id'];
  return {
    family: `${method} /mcp`, method, target: '/mcp', headers, body: method === 'GET' || method === 'DELETE' ? undefined : body,
    ...frame, rpc: method !== 'PUT' && method !== 'PATCH', mayBeValid: true,
    // The SDK may keep a POST's event stream open after its answer: read briefly, then hang up.
    streamMs: 300,
  };
});

// ----- the CDP proxy WebSocket ------------------------------------------------------------------

const WS_KEY = 'dGhlIHNhbXBsZSBub25jZQ==';
const upgradeRequest = fc.record({
  path: fc.oneof(
    fc.constantFrom('/browsers/no-such/cdp', '/browsers/%ZZ/cdp', '/browsers//cdp', '/browsers/default/cdp/x', '/cdp', '/', '/repl', '/mcp',
      `/browsers/${'a'.repeat(4000)}/cdp`, '/browsers/%2e%2e/cdp', '/browsers/default%00/cdp', '/browsers/..%2F/cdp'),
    oddSegment.map((segment) => `/browsers/${segment}/cdp`),
  ),
  key: fc.constantFrom(WS_KEY, undefined, '', 'short', '!!!'),
  version: fc.constantFrom('13', undefined, '8', 'x'),
  upgrade: fc.constantFrom('websocket', 'WebSocket', 'h2c', ''),
}).map(({ path, key, version, upgrade }) => {
  const headers = { upgrade, connection: 'Upgrade' };
  if (key !== undefined) headers['sec-websocket-key'] = key;
  if (version !== undefined) headers['sec-websocket-version'] = version;
  return {
    family: 'CDP proxy upgrade (bad paths and headers)', method: 'GET', target: path, headers, rpc: path === '/mcp',
    // `ws` may drop a handshake it refuses; a valid one to a real browser switches protocols.
    mayClose: true, mayUpgrade: true, mayBeValid: true,
  };
});

/** CDP methods that cannot harm a browser: unknown ones, reads, and a harmless evaluation. */
const SAFE_METHODS = ['', 'Fuzz.nothing', 'Runtime.evaluate', 'Target.getTargets', 'Browser.getVersion', 'Page.nope', 'Target.attachToTarget', '__proto__'];
const cdpFrame = fc.oneof(
  { arbitrary: oddString.map((text) => ({ text })), weight: 2 },
  { arbitrary: garbageBody.map((bytes) => ({ text: bytes.toString('utf8') })), weight: 2 },
  { arbitrary: jsonValue.map((value) => ({ text: JSON.stringify(value) })), weight: 2 },
  {
    arbitrary: fc.record({
      id: fc.oneof(fc.integer(), fc.constantFrom(1e308, -1, 'x', null, 2 ** 53 + 1)),
      method: fc.constantFrom(...SAFE_METHODS),
      params: fc.oneof(jsonValue, fc.record({ expression: fc.constantFrom('1+1', '"x"'), targetId: oddString }, { requiredKeys: [] })),
      sessionId: fc.oneof(oddString, fc.constant(undefined)),
    }, { requiredKeys: ['id', 'method'] }).map((message) => ({ text: JSON.stringify(message) })),
    weight: 4,
  },
  { arbitrary: fc.uint8Array({ maxLength: 128 }).map((bytes) => ({ binary: Buffer.from(bytes) })), weight: 2 },
);

function openCdp(path = '/browsers/default/cdp') {
  return new Promise((resolvePromise, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${address.port}${path}`, { perMessageDeflate: false });
    socket.once('open', () => resolvePromise(socket));
    socket.once('error', reject);
    socket.once('unexpected-response', (_request, response) => reject(new Error(`upgrade answered ${response.statusCode}`)));
  });
}

/** Resolves with the answer to one command on `socket`, or rejects after `ms`. */
function cdpCall(socket, message, ms = 30_000) {
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => { socket.off('message', onMessage); reject(new Error(`no answer to ${message.method}`)); }, ms);
    const onMessage = (data) => {
      const parsed = JSON.parse(data.toString());
      if (parsed.id !== message.id) return;
      clearTimeout(timer);
      socket.off('message', onMessage);
      resolvePromise(parsed);
    };
    socket.on('message', onMessage);
    socket.send(JSON.stringify(message));
  });
}

function closeSocket(socket) {
  if (socket.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise((resolvePromise) => {
    const timer = setTimeout(() => { socket.terminate(); resolvePromise(); }, 5_000);
    socket.once('close', () => { clearTimeout(timer); resolvePromise(); });
    socket.close();
  });
}

async function assertHealthy(context) {
  const response = await sendRaw(address, { method: 'GET', target: '/healthz' }, { deadlineMs: 30_000 });
  if (response.status !== 200) throw new Error(`${context}: the server stopped answering /healthz (${response.outcome} ${response.status})`);
}

// ----- the properties ---------------------------------------------------------------------------

t.test('every documented route, malformed and odd', async (t) => {
  await fuzz(t, `REST routes (${operations.length} path×method)`, restRequest, runs(900));
  await assertHealthy('after the REST routes');
});

t.test('unknown routes and methods', async (t) => {
  await fuzz(t, 'unknown routes and methods', unknownRequest, runs(200));
});

t.test('/mcp: malformed JSON-RPC, wrong sessions, batches, huge ids, missing Accept', async (t) => {
  await fuzz(t, '/mcp', mcpRequest, runs(300));
  // The session the fuzzer hammered still works.
  const listed = await sendRaw(address, {
    method: 'POST', target: '/mcp', headers: { 'content-type': 'application/json', accept: MCP_ACCEPT, 'mcp-session-id': mcpSession },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'after', method: 'tools/list' }),
  }, { deadlineMs: 30_000 });
  t.equal(listed.status, 200, 'tools/list still answers on the fuzzed session');
  t.match(listed.body.toString(), /browser_open/, 'and lists the tools');
});

t.test('the CDP proxy: bad upgrades, then garbage frames on a real connection', async (t) => {
  await fuzz(t, 'CDP proxy upgrades', upgradeRequest, runs(80));
  const frames = fc.array(cdpFrame, { minLength: 1, maxLength: 12 });
  const details = await fc.check(fc.asyncProperty(frames, async (sequence) => {
    const socket = await openCdp();
    socket.on('error', () => undefined);
    for (const frame of sequence) {
      if (socket.readyState !== WebSocket.OPEN) break;
      socket.send(frame.binary ?? frame.text, { binary: frame.binary !== undefined });
      count('CDP proxy frames (text, JSON, binary)', { outcome: 'answered' });
    }
    await closeSocket(socket);
    await assertHealthy('after CDP frames');
  }), { numRuns: runs(25), seed: SEED });
  if (details.failed) t.fail(`CDP frames\n${fc.defaultReportMessage(details)}\n${details.errorInstance?.message ?? ''}`);
  else t.pass(`CDP frames: ${details.numRuns} connections held`);

  // A frame far larger than any real command: the proxied connection may close, nothing else.
  const huge = await openCdp();
  huge.on('error', () => undefined);
  huge.send(JSON.stringify({ id: 1, method: 'Runtime.evaluate', params: { expression: `"${'x'.repeat(32 * 1024 * 1024)}".length` } }));
  huge.send(Buffer.alloc(8 * 1024 * 1024, 0xff), { binary: true });
  count('CDP proxy frames (text, JSON, binary)', { outcome: 'answered' });
  await sleep(500);
  await closeSocket(huge);
  await assertHealthy('after a huge CDP frame');

  // A fresh connection to the default browser still relays commands.
  const fresh = await openCdp();
  const version = await cdpCall(fresh, { id: 7, method: 'Browser.getVersion' });
  t.match(version.result?.product, /Chrome/, 'a new CDP connection to the fuzzed browser works');
  await closeSocket(fresh);
});

// ----- fixed examples: limits, nesting, slow and vanishing clients, regressions -----------------

t.test('a body just over each route\'s limit answers 413 naming the limit', async (t) => {
  const limits = [
    ['POST', '/repl', 8 * 1024 * 1024], ['PUT', '/repl/env', 1024 * 1024], ['POST', '/playwright/execute', 8 * 1024 * 1024],
    ['POST', '/webmcp/invoke', 1024 * 1024 + 4096], ['POST', '/browsers', 64 * 1024], ['PATCH', '/browsers/no-such', 64 * 1024],
    ['POST', '/process/exec', 1024 * 1024], ['PUT', '/fs/create_directory', 64 * 1024], ['PUT', '/fs/move', 64 * 1024],
    ['POST', '/browsers/default/repl', 8 * 1024 * 1024],
  ];
  for (const [method, target, limit] of limits) {
    const body = Buffer.alloc(limit + 1, 0x20);
    Buffer.from('{"code":"').copy(body);
    body[limit] = 0x7d;
    const response = await sendRaw(address, { method, target, headers: { 'content-type': 'application/json' }, body });
    count(`${method} ${target} (over the limit)`, response);
    t.equal(response.status, 413, `${method} ${target}: 413`);
    t.equal(response.json?.code, 'REPL_ERR_BODY_TOO_LARGE', `${method} ${target}: REPL_ERR_BODY_TOO_LARGE`);
    t.match(response.json?.message, new RegExp(`exceeds ${limit} bytes`), `${method} ${target}: the message names the limit`);
  }
  // write_file refuses by the declared length, before reading 64 MiB.
  const declared = await sendRaw(address, {
    method: 'PUT', target: `/fs/write_file?path=${encodeURIComponent(`${root}/big`)}`,
    headers: { 'content-type': 'application/octet-stream', 'content-length': String(64 * 1024 * 1024 + 1) }, body: Buffer.alloc(1024), framing: 'none',
  });
  count('PUT /fs/write_file (over the limit)', declared);
  t.equal(declared.status, 413, 'PUT /fs/write_file over 64 MiB: 413');
  const rpc = Buffer.alloc(8 * 1024 * 1024 + 1, 0x20);
  rpc[0] = 0x5b;
  rpc[rpc.length - 1] = 0x5d;
  const mcp = await sendRaw(address, { method: 'POST', target: '/mcp', headers: { 'content-type': 'application/json', accept: MCP_ACCEPT }, body: rpc });
  count('POST /mcp (over the limit)', mcp);
  t.equal(mcp.status, 413, 'POST /mcp over 8 MiB: 413');
  t.equal(mcp.json?.error?.code, -32600, 'as a JSON-RPC error');
});

t.test('10^5 levels of nesting are refused, not a crash', async (t) => {
  const deep = (open, close, levels = 100_000) => `${open.repeat(levels)}${close.repeat(levels)}`;
  for (const [target, body] of [
    ['/repl', deep('[', ']')],
    ['/repl', `{"code":"1","x":${deep('{"a":', '}')}}`],
    ['/webmcp/invoke', `{"tool_ref":"x","input":{"a":${deep('[', ']')}}}`],
    ['/process/exec', `{"command":"true","env":${deep('{"a":', '}')}}`],
    // 30 000 levels: /browsers takes at most 64 KiB.
    ['/browsers', `{"tags":{"a":${deep('[', ']', 30_000)}}}`],
  ]) {
    const response = await sendRaw(address, { method: 'POST', target, headers: { 'content-type': 'application/json' }, body });
    count(`POST ${target} (deep nesting)`, response);
    t.equal(response.status, 400, `${target}: 400 for ${body.slice(0, 20)}…`);
    t.equal(response.json?.code, 'REPL_ERR_INVALID_REQUEST', `${target}: REPL_ERR_INVALID_REQUEST`);
  }
  const rpc = await sendRaw(address, {
    method: 'POST', target: '/mcp', headers: { 'content-type': 'application/json', accept: MCP_ACCEPT, 'mcp-session-id': mcpSession },
    body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"browser_tabs","arguments":${deep('[', ']')}}}`,
  });
  count('POST /mcp (deep nesting)', rpc);
  t.ok(rpc.status < 500, `/mcp: ${rpc.status} below 500`);
});

t.test('slow clients that drip bytes still get their answers', async (t) => {
  const dripped = [
    { method: 'POST', target: '/repl', headers: { 'content-type': 'application/json' }, body: '{"code":5}', field: 'code' },
    { method: 'PUT', target: '/fs/move', headers: { 'content-type': 'application/json' }, body: '{"src_path":1}', field: 'src_path' },
    { method: 'GET', target: '/repls' },
    { method: 'POST', target: '/process/exec', headers: { 'content-type': 'application/json' }, body: '{"command":"true"}' },
  ];
  // Concurrently: each takes a few seconds on purpose, the server must serve them side by side.
  await Promise.all(dripped.map(async (request) => {
    const response = await sendRaw(address, { ...request, dripMs: 15 });
    count('slow clients (one byte every 15 ms)', response);
    const problem = problemOf({ ...request, mayBeValid: request.field === undefined }, response);
    t.equal(problem, undefined, `${request.method} ${request.target} dripped: ${problem ?? `${response.status}`}`);
  }));
});

t.test('clients that vanish mid-request and mid-response leave the server serving', async (t) => {
  const cuts = [];
  for (let index = 0; index < 20; index += 1) {
    cuts.push(sendRaw(address, {
      method: 'POST', target: '/repl', headers: { 'content-type': 'application/json', accept: index % 2 === 0 ? 'text/event-stream' : 'application/json' },
      body: JSON.stringify({ code: '1+1', repl: 'fuzz-a' }), ...(index < 10 ? { cutAfter: 60 + index * 7 } : { cutOnResponse: true }),
    }));
    cuts.push(sendRaw(address, {
      method: 'PUT', target: `/fs/write_file?path=${encodeURIComponent(`${root}/cut-${index}`)}`,
      headers: { 'content-type': 'application/octet-stream', 'content-length': '100000' }, body: Buffer.alloc(5000, 1), framing: 'none', cutAfter: 3000,
    }));
  }
  for (const response of await Promise.all(cuts)) count('clients that disconnect mid-request or mid-response', response);
  await assertHealthy('after the disconnects');
  const after = await api.call('POST', '/repl', { code: '1+1', repl: 'fuzz-a' });
  t.equal(after.json?.success, true, 'the REPL the vanished clients used runs the next cell');
});

// ----- what must have survived --------------------------------------------------------------------

t.test('another user\'s state is untouched', async (t) => {
  await assertHealthy('at the end');
  t.same(protoSnapshot(), protoBefore, 'Object, Array, Function and String prototypes of the server process gained no keys');
  t.equal(({}).fuzzPolluted, undefined, 'no fuzzPolluted property reaches plain objects');
  const bystander = await api.call('POST', '/browsers/bystander/repl', { code: 'console.log(kept + 1)' });
  t.equal(bystander.json?.content?.[0]?.text, '42', 'the bystander browser\'s REPL kept its binding');
  const info = await api.call('GET', `/browsers/${bystanderId}`);
  t.equal(info.status, 200, 'the bystander browser is still listed');
  const tabs = await api.call('POST', '/browsers/bystander/repl', { code: 'console.log((await listTabs()).length > 0)' });
  t.equal(tabs.json?.content?.[0]?.text, 'true', 'and its Chromium still answers');
  const kept = await api.call('POST', '/repl', { code: 'console.log(keep)', repl: 'keeper' });
  t.equal(kept.json?.content?.[0]?.text, 'safe', 'the default browser\'s named REPL kept its binding');
  const results = await api.call('GET', `/repl/results/${knownCellId}`);
  t.equal(results.status, 200, 'a known cell result is still served');

  for (const [owner, example] of knownSeen) t.fail(`known, owned elsewhere: ${owner}; e.g. ${example}`, { todo: 'reported to the owner (issue 13)' });

  const rows = [...tally.entries()].sort(([a], [b]) => a.localeCompare(b));
  let total = 0;
  let serverErrors = 0;
  for (const [family, row] of rows) {
    total += row.requests;
    serverErrors += row.serverErrors;
    t.comment(`fuzz: ${family} ${row.requests} requests, ${row.serverErrors} 5xx${row.closed > 0 ? `, ${row.closed} closed without an answer` : ''}`);
  }
  t.comment(`fuzz: total ${total} requests, ${serverErrors} 5xx (seed ${SEED})`);
});
