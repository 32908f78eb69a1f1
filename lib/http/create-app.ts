/**
 * The Express application, without listening: tests and embedders mount or `listen()` it.
 * Routes of a browser host are mounted at `/` for the default host; the same router serves
 * `/browsers/:id/...` once the registry holds more than one browser.
 */
import express from 'express';
import type { Express } from 'express';
import { HostRegistry } from '../host/host-registry.js';
import type { BrowserHostOptions } from '../host/browser-host.js';
import type { Viewport } from '../browser/viewport.js';
import { bearerAuth, errorHandler, notFound } from './middleware.js';
import { replRoutes } from './routes/repl-routes.js';
import { playwrightRoutes } from './routes/playwright-routes.js';

export interface AppOptions {
  /** Hosts to serve; a registry with one `default` host is created when omitted. */
  registry?: HostRegistry;
  /** Options of the default host when the app creates the registry. */
  defaultHost?: BrowserHostOptions;
  /** When set, every route requires `Authorization: Bearer <token>` (default `BROWSER_REPL_TOKEN`). */
  token?: string | undefined;
  /**
   * Default viewport of the default host's tabs (`BrowserHostOptions.viewport`; it wins over
   * `defaultHost.viewport`). Default `BROWSER_REPL_VIEWPORT`, else 1280×720. Ignored with `registry`.
   */
  viewport?: Viewport | undefined;
}

export interface BrowserReplApp extends Express {
  /** The registry behind the routes; close it to end every REPL. */
  readonly registry: HostRegistry;
}

export function createApp(options: AppOptions = {}): BrowserReplApp {
  const registry = options.registry ?? new HostRegistry();
  if (registry.size === 0) {
    const host = options.defaultHost ?? {};
    registry.add(options.viewport === undefined ? host : { ...host, viewport: options.viewport });
  }
  const app = express() as unknown as BrowserReplApp;
  Object.defineProperty(app, 'registry', { value: registry, enumerable: true });
  app.disable('x-powered-by');
  app.set('etag', false);
  const token = 'token' in options ? options.token : process.env['BROWSER_REPL_TOKEN'];
  if (token !== undefined && token !== '') app.use(bearerAuth(token));
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  const defaultHost = registry.get('default');
  const hostOfTopLevel = () => defaultHost;
  app.use(replRoutes(hostOfTopLevel));
  app.use(playwrightRoutes(hostOfTopLevel));
  app.use(notFound);
  app.use(errorHandler);
  return app;
}
