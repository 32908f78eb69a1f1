/**
 * The telemetry of one browser (docs/telemetry.md): the categories it captures (`telemetry` of
 * `POST /browsers` and `PATCH /browsers/{id}`), the ring of its events (what
 * `GET /browsers/{id}/telemetry/stream` and `/telemetry/events` read), and while a CDP category is
 * on, the {@link TelemetryCollector} that produces them. Off by default, and off costs nothing:
 * no connection, no listener in the browser, an empty ring.
 *
 * A change of the CDP categories replaces the collector (the new one enables just the domains it
 * needs); turning every CDP category off closes it. Closing ends the collector and every open
 * stream (the SDK's stream "closes when the browser session terminates").
 */
import { Resource } from '../../common/resource.js';
import { CDP_CATEGORIES, needsCollector } from './config.js';
import type { TelemetryCategory, TelemetrySelection } from './config.js';
import { TelemetryCollector } from './collector.js';
import type { TelemetryEvent } from './collector.js';
import { EventRing } from './event-ring.js';
import type { EventRingOptions } from './event-ring.js';

export type { TelemetryEvent } from './collector.js';

export interface BrowserTelemetryOptions {
  /** The browser's DevTools endpoint; `null` for a browser without Chromium (no CDP category can be captured). */
  endpoint: (() => Promise<string>) | null;
  ring?: EventRingOptions | undefined;
}

/** See the module comment. */
export class BrowserTelemetry extends Resource {
  readonly ring: EventRing<TelemetryEvent>;
  readonly #endpoint: (() => Promise<string>) | null;
  readonly #closeListeners = new Set<() => void>();
  #selection: TelemetrySelection | undefined;
  #collector: TelemetryCollector | undefined;
  /** The CDP categories the collector runs with, as a key. */
  #collectorKey = '';
  readonly #stopping = new Set<Promise<void>>();

  constructor(options: BrowserTelemetryOptions) {
    super();
    this.#endpoint = options.endpoint;
    this.ring = new EventRing(options.ring);
  }

  /** The categories on, or `undefined` when nothing is captured. */
  get selection(): TelemetrySelection | undefined {
    return this.#selection;
  }

  /** Whether a CDP collector runs now (tests check that telemetry off costs nothing). */
  get collecting(): boolean {
    return this.#collector !== undefined;
  }

  /** Resolves once the running collector attached (or failed to); at once when none runs. */
  async started(): Promise<void> {
    await this.#collector?.started;
  }

  /** Applies a resolved selection (lib/telemetry/config.ts `resolveTelemetry`). */
  configure(selection: TelemetrySelection | undefined): void {
    if (this.closed) return;
    this.#selection = selection === undefined || selection.size === 0 ? undefined : new Set(selection);
    const cdp = needsCollector(this.#selection) ? CDP_CATEGORIES.filter((category) => this.#selection!.has(category)) : [];
    const key = cdp.join(',');
    if (key === this.#collectorKey) return;
    this.#stopCollector();
    this.#collectorKey = key;
    if (cdp.length === 0) return;
    const categories = new Set<TelemetryCategory>(cdp);
    if (this.#endpoint === null) {
      this.ring.push({ category: 'monitor', type: 'monitor_init_failed', source: { kind: 'local_process' }, ts: Date.now() * 1000, data: { step: 'connect' } });
      return;
    }
    const collector: TelemetryCollector = new TelemetryCollector({
      endpoint: this.#endpoint, categories,
      // A replaced or stopped collector's last events (a response body fetched late) are dropped.
      emit: (event) => {
        if (!this.closed && this.#collector === collector) this.ring.push(event);
      },
    });
    this.#collector = collector;
  }

  /** Calls `listener` once when the telemetry closes (the browser ended); returns the unsubscriber. */
  onClose(listener: () => void): () => void {
    if (this.closed) {
      listener();
      return () => undefined;
    }
    this.#closeListeners.add(listener);
    return () => this.#closeListeners.delete(listener);
  }

  protected async closeGracefully(): Promise<void> {
    this.#stopCollector();
    this.#selection = undefined;
    await Promise.all(this.#stopping);
    for (const listener of [...this.#closeListeners]) listener();
    this.#closeListeners.clear();
  }

  #stopCollector(): void {
    const collector = this.#collector;
    if (collector === undefined) return;
    this.#collector = undefined;
    this.#collectorKey = '';
    const stopping = collector.close().finally(() => this.#stopping.delete(stopping));
    this.#stopping.add(stopping);
  }
}
