// Issue 31 part 1: the cost of saving a stored profile (docs/browsers.md#profiles) of a typical
// 20 MiB user-data folder, through the store the server uses: a filtered copy into a temporary
// sibling, an fsync of every file and folder, the rename to a new generation and the atomic
// replacement of profile.json; and of copying it into a new browser's folder. The baseline is
// `fs.cp` of the same tree (no filter, no fsync), the least any copy costs. The tree holds no
// caches (those would be skipped, making the save look cheaper than a copy): 20 MiB that is kept.
// Samples alternate between ours and the baseline, so drift in the machine's load hits both.
import { cp, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ProfileStore } from '../../dist/lib/profiles/profile-store.js';
import { interleaved } from '../bench-page.mjs';

const MIB = 1024 * 1024;

/** A user-data-like tree of about 20 MiB: databases, LevelDB logs, IndexedDB and many small files. */
export async function makeUserData(root) {
  const files = [
    ['Local State', 16 * 1024], ['Default/Preferences', 64 * 1024], ['Default/Secure Preferences', 16 * 1024],
    ['Default/Cookies', 1 * MIB], ['Default/History', 4 * MIB], ['Default/Favicons', 2 * MIB], ['Default/Web Data', 1 * MIB],
    ['Default/Login Data', 256 * 1024], ['Default/Top Sites', 128 * 1024], ['Default/Network Persistent State', 32 * 1024],
  ];
  for (let i = 0; i < 8; i++) files.push([`Default/Local Storage/leveldb/00000${i}.ldb`, 256 * 1024]);
  for (let site = 0; site < 20; site++) {
    for (let i = 0; i < 10; i++) files.push([`Default/IndexedDB/https_site${site}.example_0.indexeddb.leveldb/0000${i}.ldb`, 40 * 1024]);
  }
  for (let i = 0; i < 400; i++) files.push([`Default/Session Storage/${String(i).padStart(6, '0')}.log`, 4 * 1024]);
  let total = files.reduce((sum, [, size]) => sum + size, 0);
  // Topped up to 20 MiB with Service Worker databases (kept: only their caches are left out).
  for (let i = 0; total < 20 * MIB; i++) {
    const size = Math.min(512 * 1024, 20 * MIB - total);
    files.push([`Default/Service Worker/Database/${String(i).padStart(6, '0')}.ldb`, size]);
    total += size;
  }
  // Bytes that do not compress to nothing, as real databases.
  const bytes = Buffer.alloc(4 * MIB);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 2654435761) >>> 24;
  for (const [file, size] of files) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), bytes.subarray(0, size));
  }
  return { files: files.length, bytes: total };
}

export async function run({ quick }) {
  const iterations = quick ? 5 : 30;
  const scratch = await mkdtemp(path.join(tmpdir(), 'chromium-repl-bench-profiles-'));
  try {
    const source = path.join(scratch, 'user-data');
    const tree = await makeUserData(source);
    const store = new ProfileStore({ dir: path.join(scratch, 'profiles') });
    const profile = await store.create({ name: 'bench' });
    const sealedStore = new ProfileStore({ dir: path.join(scratch, 'sealed'), key: Buffer.alloc(32, 5) });
    const sealed = await sealedStore.create({ name: 'bench-sealed' });
    let copies = 0;
    const [save, plainCopy, seed, plainSeed, sealedSave, sealedBaseline] = await interleaved(iterations, 2, [
      () => store.save(profile.id, source),
      () => cp(source, path.join(scratch, `copy-${copies++}`), { recursive: true }),
      async () => {
        const target = path.join(scratch, `seed-${copies++}`);
        await mkdir(target);
        await store.copyInto(profile.id, target);
      },
      () => cp(source, path.join(scratch, `plain-${copies++}`), { recursive: true }),
      () => sealedStore.save(sealed.id, source),
      () => cp(source, path.join(scratch, `sealed-base-${copies++}`), { recursive: true }),
    ]);
    // Every save left one generation, whole: the last one.
    const generations = (await readdir(path.join(store.dir, profile.id))).filter((name) => name.startsWith('data-'));
    if (generations.length !== 1) throw new Error(`expected one generation after the saves, found ${generations.length}`);
    return {
      title: 'Profiles (issue 31): saving and loading a 20 MiB profile',
      baselineName: '`fs.cp` of the same tree (no filter, no fsync), samples alternating',
      rows: [
        { name: `profile save (${tree.files} files, ${(tree.bytes / MIB).toFixed(0)} MiB: filtered copy, fsync, atomic rename)`, unit: 'p50', ours: save.p50, baseline: plainCopy.p50 },
        { name: 'profile save', unit: 'p99', ours: save.p99, baseline: plainCopy.p99 },
        { name: 'profile copy into a new browser\'s folder', unit: 'p50', ours: seed.p50, baseline: plainSeed.p50 },
        { name: 'profile save, encrypted at rest (AES-256-GCM per file)', unit: 'p50', ours: sealedSave.p50, baseline: sealedBaseline.p50 },
      ],
      notes: [
        'A save runs after the browser exited and before its folder is removed (lib/chromium/launch-chromium.ts); DELETE /browsers/{id} of a saving browser answers after it.',
        'The fsync of every file (32 at a time) is most of the difference on a disk; on tmpfs it costs little.',
      ],
    };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
