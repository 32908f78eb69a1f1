// Pure parts of the issue 9 helpers: download file names, onDialog policies, the host's folder names.
import t from 'tap';
import { uniqueFileName } from '../../dist/worker/helpers/core/downloads.js';
import { readDialogPolicy } from '../../dist/worker/helpers/core/dialogs.js';
import { folderName } from '../../dist/lib/chromium/downloads.js';

t.test('uniqueFileName keeps the suggested name, numbers duplicates, never leaves the folder', async (t) => {
  const taken = new Set(['a.csv', 'a (1).csv', 'noext']);
  const has = (name) => taken.has(name);
  t.equal(uniqueFileName('b.csv', has), 'b.csv');
  t.equal(uniqueFileName('a.csv', has), 'a (2).csv');
  t.equal(uniqueFileName('noext', has), 'noext (1)');
  t.equal(uniqueFileName('../../etc/passwd', has), 'passwd', 'path parts are dropped');
  t.equal(uniqueFileName('..\\windows\\x.txt', has), 'x.txt');
  t.equal(uniqueFileName('..', has), 'download');
  t.equal(uniqueFileName('', has), 'download');
});

t.test('readDialogPolicy', async (t) => {
  t.equal(readDialogPolicy(null), null);
  t.same(readDialogPolicy('accept'), { accept: true });
  t.same(readDialogPolicy('dismiss'), { accept: false });
  t.same(readDialogPolicy({ accept: true, promptText: 'Ada' }), { accept: true, promptText: 'Ada' });
  for (const bad of ['sometimes', 1, [], undefined]) {
    t.throws(() => readDialogPolicy(bad), { code: 'REPL_ERR_INVALID_ARGUMENT', message: /onDialog: policy must be/ }, String(bad));
  }
  t.throws(() => readDialogPolicy({}), { code: 'REPL_ERR_INVALID_ARGUMENT', message: 'onDialog: accept must be a boolean' });
  t.throws(() => readDialogPolicy({ accept: true, promptText: 1 }), { message: 'onDialog: promptText must be a string' });
  t.throws(() => readDialogPolicy({ accept: true, extra: 1 }), { message: 'onDialog: unknown option: extra' });
});

t.test('folderName', async (t) => {
  t.equal(folderName('repl:search'), 'search');
  t.equal(folderName('repl:default'), 'default');
  t.equal(folderName('executor:x'), 'executor-x');
  t.equal(folderName('repl:a/b'), 'a_b', 'never a path separator');
});
