import { request } from 'undici';
import { startServer } from './dist/lib/index.js';
import { setTimeout as sleep } from 'node:timers/promises';
const s = await startServer({ port: 0, token: undefined, browserPool: 2, defaultHost: { browser: false } });
const call = async (m, p, b) => { const r = await request(s.url + p, { method: m, headers: { 'content-type': 'application/json' }, body: b && JSON.stringify(b) }); const t = await r.body.text(); return t ? JSON.parse(t) : undefined; };
const rows = [];
for (let i = 0; i < 12; i++) {
  while (s.app.browsers.pooled < 2) await sleep(20);
  const t0 = performance.now();
  const b = await call('POST', '/browsers', {});
  const t1 = performance.now();
  const r = await call('POST', `/browsers/${b.session_id}/repl`, { code: 'repl.write(String(await js("1+1")))' });
  const t3 = performance.now();
  await call('DELETE', `/browsers/${b.session_id}`);
  const t4 = performance.now();
  rows.push([t1 - t0, t3 - t1, t4 - t3, t4 - t0]);
}
const med = (k) => rows.map((r) => r[k]).sort((a, b) => a - b)[6].toFixed(1);
console.log('create', med(0), 'cell', med(1), 'delete', med(2), 'total', med(3));
await s.close();
