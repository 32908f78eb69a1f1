/**
 * The computer controls of one browser, in the paths and shapes of the Kernel SDK
 * (`client.browsers.computer.clickMouse`, `moveMouse`, `dragMouse`, `scroll`, `typeText`,
 * `pressKey`, `captureScreenshot`, `readClipboard`, `writeClipboard`, `setCursorVisibility`,
 * `getMousePosition`, `batch`); docs/computer.md has the rules, lib/live-view/computer.ts the
 * engine. Every route exists at the top level and below `/browsers/{id_or_name}/`. Bodies are
 * checked against openapi.json before anything is sent; actions answer `200` with no body once
 * Chromium acknowledged their last input event.
 */
import { Router } from 'express';
import type { Request, Response } from 'express';
import type { Browser } from '../../browsers/browser.js';
import { BrowserComputer } from '../../live-view/computer.js';
import type { BatchAction, ClickMouse, DragMouse, MoveMouse, PressKey, Region, Scroll, TypeText } from '../../live-view/computer.js';
import { jsonBody, noRetry, requestSignal, requireBody } from '../middleware.js';
import type { BrowserOf } from '../middleware.js';
import { validateBody } from '../schema-validator.js';

/** Largest JSON body: a batch of many actions, or 16 Ki characters of text. */
const BODY_BYTES = 1024 * 1024;

export function computerRoutes(browserOf: BrowserOf): Router {
  const router = Router();
  const computers = new WeakMap<Browser, BrowserComputer>();
  const computerOf = (req: Request, res: Response): BrowserComputer => {
    const browser = browserOf(req, res);
    let computer = computers.get(browser);
    if (computer === undefined || computer.closed) {
      const created = new BrowserComputer(browser);
      computer = created;
      computers.set(browser, created);
      // Its CDP connection ends with the browser.
      browser.onEnd(() => created.close());
    }
    return computer;
  };
  /** A body the schema `schema` accepts (an empty one counts as `{}` when `optional`). */
  const bodyOf = <T>(req: Request, schema: string, optional = false): T => {
    if (optional && (req.body === undefined || req.body === null)) return {} as T;
    requireBody(req.body);
    validateBody(schema, req.body);
    return req.body as T;
  };
  const done = (res: Response): void => {
    res.status(200).end();
  };
  // Input is not idempotent: a retried click clicks twice.
  const action = <T>(path: string, schema: string, run: (computer: BrowserComputer, body: T, signal: AbortSignal) => Promise<void>): void => {
    router.post(path, jsonBody(BODY_BYTES), async (req: Request, res: Response) => {
      noRetry(res);
      const computer = computerOf(req, res);
      const body = bodyOf<T>(req, schema);
      const signal = requestSignal(req, res);
      await computer.exclusive(() => run(computer, body, signal));
      res.removeHeader('x-should-retry');
      done(res);
    });
  };

  action<ClickMouse>('/computer/click_mouse', 'ComputerClickMouseRequest', (computer, body) => computer.clickMouse(body));
  action<MoveMouse>('/computer/move_mouse', 'ComputerMoveMouseRequest', (computer, body, signal) => computer.moveMouse(body, signal));
  action<DragMouse>('/computer/drag_mouse', 'ComputerDragMouseRequest', (computer, body, signal) => computer.dragMouse(body, signal));
  action<Scroll>('/computer/scroll', 'ComputerScrollRequest', (computer, body) => computer.scroll(body));
  action<TypeText>('/computer/type', 'ComputerTypeTextRequest', (computer, body, signal) => computer.typeText(body, signal));
  action<PressKey>('/computer/press_key', 'ComputerPressKeyRequest', (computer, body, signal) => computer.pressKey(body, signal));
  action<{ actions: BatchAction[] }>('/computer/batch', 'ComputerBatchRequest', (computer, body, signal) => computer.batch(body.actions, signal));

  router.post('/computer/screenshot', jsonBody(BODY_BYTES), async (req: Request, res: Response) => {
    const computer = computerOf(req, res);
    const body = bodyOf<{ region?: Region }>(req, 'ComputerScreenshotRequest', true);
    const png = await computer.exclusive(() => computer.screenshot(body.region));
    res.setHeader('content-type', 'image/png');
    res.end(png);
  });

  router.post('/computer/get_mouse_position', (req: Request, res: Response) => {
    res.json(computerOf(req, res).position);
  });

  router.post('/computer/clipboard/read', (req: Request, res: Response) => {
    res.json({ text: computerOf(req, res).readClipboard() });
  });

  router.post('/computer/clipboard/write', jsonBody(BODY_BYTES), async (req: Request, res: Response) => {
    const computer = computerOf(req, res);
    const body = bodyOf<{ text: string }>(req, 'ComputerClipboardWriteRequest');
    // In the lock: a batch's ctrl+v before this write pastes the text it saw.
    await computer.exclusive(async () => computer.writeClipboard(body.text));
    done(res);
  });

  router.post('/computer/cursor', jsonBody(BODY_BYTES), async (req: Request, res: Response) => {
    const computer = computerOf(req, res);
    const body = bodyOf<{ hidden: boolean }>(req, 'ComputerCursorRequest');
    await computer.exclusive(async () => computer.setCursor(body.hidden));
    res.json({ ok: true });
  });

  return router;
}
