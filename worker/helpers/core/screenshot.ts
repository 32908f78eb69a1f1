/**
 * `captureScreenshot`: PNG, JPEG or WebP straight from Chromium (`Page.captureScreenshot` with
 * `format`/`quality`), scaled by Chromium itself (`clip.scale`) for `maxDim`, so no image library
 * runs in the REPL. The base64 answer is decoded once into the Buffer that is written to disk.
 *
 * Regions: the viewport (default; no extra round trip unless `maxDim` needs the geometry), the
 * full page (`Page.getLayoutMetrics` content size as an explicit clip with
 * `captureBeyondViewport`, so the whole scroll height is captured, unlike the hosted product's
 * clip-less request), an explicit `clip`, or the box of a `selector`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

import { ReplError } from '../../../common/errors.js';
import { pageEvaluationError } from '../../page/page-value-codec.js';
import { assertPageResponsive, guardDialog, retryIfDisconnected } from './page-guard.js';
import { readScreenshotArguments, scaleToFit } from './screenshot-options.js';

import type { Protocol } from 'devtools-protocol';
import type { HelperContext } from '../helper-context.js';
import type { Rect, ScreenshotRequest } from './screenshot-options.js';

const VIEWPORT_EXPRESSION =
  '[devicePixelRatio, innerWidth, innerHeight, visualViewport ? visualViewport.pageLeft : scrollX, visualViewport ? visualViewport.pageTop : scrollY]';

function elementExpression(selector: string): string {
  return `((selector) => {
  const element = document.querySelector(selector);
  if (element === null) return null;
  const box = element.getBoundingClientRect();
  const left = visualViewport ? visualViewport.pageLeft : scrollX;
  const top = visualViewport ? visualViewport.pageTop : scrollY;
  return [devicePixelRatio, box.left + left, box.top + top, box.width, box.height];
})(${JSON.stringify(selector)})`;
}

export function createScreenshotHelpers(context: HelperContext) {
  const { client } = context;

  async function evaluateNumbers(sessionId: string, expression: string): Promise<number[] | null> {
    const response = await guardDialog('captureScreenshot', context, sessionId, () => client.evaluate(sessionId, expression, context.callOptions()));
    if (response.exceptionDetails !== undefined) throw pageEvaluationError(response.exceptionDetails);
    return response.result.value as number[] | null;
  }

  /** The clip (and whether it may extend past the viewport) for `request`, or none for a plain viewport shot. */
  async function regionClip(sessionId: string, request: ScreenshotRequest): Promise<{ clip: Protocol.Page.Viewport; beyond: boolean } | undefined> {
    const { region, maxDim } = request;
    const withScale = (rect: Rect, devicePixelRatio: number) => ({ ...rect, scale: scaleToFit(rect.width, rect.height, devicePixelRatio, maxDim) });
    switch (region.kind) {
      case 'viewport': {
        if (maxDim === undefined) return undefined;
        const [dpr = 1, width = 0, height = 0, x = 0, y = 0] = (await evaluateNumbers(sessionId, VIEWPORT_EXPRESSION)) ?? [];
        return { clip: withScale({ x, y, width, height }, dpr), beyond: false };
      }
      case 'fullPage': {
        // Pipelined: one round trip for both. The ratio is only needed to honour maxDim.
        const [metrics, numbers] = await Promise.all([
          guardDialog('captureScreenshot', context, sessionId, () => client.sessionCommand('Page.getLayoutMetrics', undefined, context.callOptions())),
          maxDim === undefined ? Promise.resolve([1]) : evaluateNumbers(sessionId, '[devicePixelRatio]'),
        ]);
        const size = metrics.cssContentSize;
        return { clip: withScale({ x: 0, y: 0, width: size.width, height: size.height }, numbers?.[0] ?? 1), beyond: true };
      }
      case 'clip': {
        const dpr = maxDim === undefined ? 1 : ((await evaluateNumbers(sessionId, '[devicePixelRatio]'))?.[0] ?? 1);
        return { clip: withScale(region.clip, dpr), beyond: true };
      }
      case 'selector': {
        const numbers = await evaluateNumbers(sessionId, elementExpression(region.selector));
        if (numbers === null) {
          throw new ReplError('REPL_ERR_TARGET_NOT_FOUND', `captureScreenshot: no element matches selector ${JSON.stringify(region.selector)}`);
        }
        const [dpr = 1, x = 0, y = 0, width = 0, height = 0] = numbers;
        if (!(width > 0 && height > 0)) {
          throw new ReplError('REPL_ERR_TARGET_NOT_FOUND', `captureScreenshot: the element matching ${JSON.stringify(region.selector)} has no size (hidden or empty)`);
        }
        return { clip: withScale({ x, y, width, height }, dpr), beyond: true };
      }
    }
  }

  /**
   * Captures the attached page to `path` (default /tmp/shot.png) and returns the path. See the
   * module comment and `repl.help("captureScreenshot")` for the argument forms.
   */
  async function captureScreenshot(...args: unknown[]): Promise<string> {
    const request = readScreenshotArguments(args);
    const bytes = await retryIfDisconnected(() => capture(request));
    await mkdir(dirname(request.path), { recursive: true });
    await writeFile(request.path, bytes);
    return request.path;
  }

  async function capture(request: ScreenshotRequest): Promise<Buffer> {
    const sessionId = await client.ensureAttached(context.callOptions());
    if (client.pendingDialog !== null || !client.rendererResponsive) await assertPageResponsive('captureScreenshot', context);
    const params: Protocol.Page.CaptureScreenshotRequest = { format: request.format };
    if (request.quality !== undefined) params.quality = request.quality;
    const region = await regionClip(sessionId, request);
    if (region !== undefined) {
      params.clip = region.clip;
      if (region.beyond) params.captureBeyondViewport = true;
    }
    const { data } = await guardDialog('captureScreenshot', context, sessionId, () =>
      client.sessionCommand('Page.captureScreenshot', params, context.callOptions()),
    );
    return Buffer.from(data, 'base64');
  }

  return { captureScreenshot };
}
