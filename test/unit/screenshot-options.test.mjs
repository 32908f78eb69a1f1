// captureScreenshot's argument forms, validation messages and maxDim geometry (pure).
import t from 'tap';
import { formatFromPath, readScreenshotArguments, scaleToFit } from '../../dist/worker/helpers/core/screenshot-options.js';

t.test('readScreenshotArguments', async (t) => {
  t.same(readScreenshotArguments([]), { path: '/tmp/shot.png', format: 'png', quality: undefined, maxDim: undefined, region: { kind: 'viewport' } });
  t.same(readScreenshotArguments(['/tmp/a.png', true, 800]), { path: '/tmp/a.png', format: 'png', quality: undefined, maxDim: 800, region: { kind: 'fullPage' } });
  t.same(readScreenshotArguments([undefined, undefined, undefined]).path, '/tmp/shot.png');
  t.same(readScreenshotArguments(['/tmp/a.jpg', { quality: 40, fullPage: true }]), { path: '/tmp/a.jpg', format: 'jpeg', quality: 40, maxDim: undefined, region: { kind: 'fullPage' } });
  t.same(readScreenshotArguments([{ path: '/tmp/b', format: 'WEBP', selector: '#x' }]), { path: '/tmp/b', format: 'webp', quality: undefined, maxDim: undefined, region: { kind: 'selector', selector: '#x' } });
  t.same(readScreenshotArguments([{ clip: { x: 1, y: 2, width: 3, height: 4 }, maxDim: 2 }]).region, { kind: 'clip', clip: { x: 1, y: 2, width: 3, height: 4 } });
  t.equal(readScreenshotArguments(['/tmp/a.png', false, null]).maxDim, undefined, 'null maxDim means none');

  const fails = [
    [[42], 'captureScreenshot: path must be a non-empty string'],
    [[''], 'captureScreenshot: path must be a non-empty string'],
    [['/tmp/a.png', 'yes'], 'captureScreenshot: fullPage must be a boolean'],
    [['/tmp/a.png', false, 0], 'captureScreenshot: maxDim must be a positive integer'],
    [['/tmp/a.png', false, 2.5], 'captureScreenshot: maxDim must be a positive integer'],
    [['/tmp/a.png', false, '800'], 'captureScreenshot: maxDim must be a positive integer'],
    [[{ quality: 50 }], 'captureScreenshot: quality applies to jpeg and webp only (png is lossless)'],
    [[{ path: '/tmp/a.jpg', quality: -1 }], 'captureScreenshot: quality must be an integer from 0 to 100'],
    [[{ path: '/tmp/a.jpg', quality: 50.5 }], 'captureScreenshot: quality must be an integer from 0 to 100'],
    [[{ format: 'gif' }], 'captureScreenshot: format must be "png", "jpeg" or "webp"'],
    [[{ path: '/tmp/a.png', format: 'jpeg' }], 'captureScreenshot: format "jpeg" does not match the file extension of "/tmp/a.png"'],
    [[{ bogus: 1 }], 'captureScreenshot: unknown option: bogus'],
    [['/tmp/a.png', { path: '/tmp/b.png' }], 'captureScreenshot: unknown option: path'],
    [[{}, true], 'captureScreenshot: pass either an options object or (path, fullPage, maxDim)'],
    [['/tmp/a.png', {}, 3], 'captureScreenshot: pass either (path, options) or (path, fullPage, maxDim)'],
    [[{ clip: { x: 0, y: 0, width: 0, height: 1 } }], 'captureScreenshot: clip must be {x, y, width, height} in CSS pixels, with a positive width and height'],
    [[{ clip: { x: 0, y: 0, width: 1 } }], 'captureScreenshot: clip must be {x, y, width, height} in CSS pixels, with a positive width and height'],
    [[{ selector: '' }], 'captureScreenshot: selector must be a non-empty string'],
    [[{ fullPage: true, clip: { x: 0, y: 0, width: 1, height: 1 } }], 'captureScreenshot: fullPage, clip and selector are mutually exclusive'],
  ];
  for (const [args, message] of fails) {
    t.throws(() => readScreenshotArguments(args), { code: 'REPL_ERR_INVALID_ARGUMENT', message }, JSON.stringify(args));
  }
});

t.test('formatFromPath', async (t) => {
  t.equal(formatFromPath('/tmp/a.PNG'), 'png');
  t.equal(formatFromPath('/tmp/a.jpg'), 'jpeg');
  t.equal(formatFromPath('/tmp/a.jpeg'), 'jpeg');
  t.equal(formatFromPath('/tmp/a.webp'), 'webp');
  t.equal(formatFromPath('/tmp/a.gif'), undefined);
  t.equal(formatFromPath('/tmp/a'), undefined);
});

t.test('scaleToFit', async (t) => {
  t.equal(scaleToFit(800, 600, 1, undefined), 1);
  t.equal(scaleToFit(800, 600, 1, 1000), 1, 'never enlarges');
  t.equal(scaleToFit(4, 2, 1, 2), 0.5, 'the hosted product\'s 4×2 → 2×1 case');
  t.equal(scaleToFit(1200, 3000, 1, 600), 0.2);
  t.equal(scaleToFit(800, 600, 2, 800), 0.5, 'maxDim counts device pixels');
  t.equal(Math.round(780 * scaleToFit(780, 437, 1, 100)), 100);
  t.equal(scaleToFit(10, 10, 0, 5), 0.5, 'a bogus ratio counts as 1');
});
