/**
 * A listener's TLS files, loaded at start and again when they change: every `reloadIntervalMs` the files'
 * identity (inode, size, modification time; symbolic links followed, so a Kubernetes secret's swapped link
 * counts) is compared with the last one loaded. Changed files are loaded and checked as at start; usable
 * ones go to the listeners (new connections get them, open ones keep theirs), unusable ones (a key written
 * before its certificate, a half-written file) are logged once and the previous certificate stays in use
 * until the files change again.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import type { TlsServerConfig } from '../config/sections/tls.js';
import { errorMessage } from '../errors.js';
import { describeCertificate, loadServerTls, type ServerTlsOptions } from './material.js';

export type TlsReloadListener = (options: ServerTlsOptions) => void;

export class TlsReloader {
  readonly #config: TlsServerConfig;
  readonly #path: string;
  readonly #log: Logger;
  readonly #listeners = new Set<TlsReloadListener>();
  #options: ServerTlsOptions;
  #stamp: string;
  #timer: NodeJS.Timeout | undefined;

  /** Loads the files now: throws `TlsFileError` naming the key and file when one cannot be used. */
  constructor(config: TlsServerConfig, path: string, log: Logger) {
    this.#config = config;
    this.#path = path;
    this.#log = log;
    this.#stamp = this.#currentStamp();
    this.#options = loadServerTls(config, path);
  }

  /** The options last loaded. */
  get options(): ServerTlsOptions {
    return this.#options;
  }

  /** Called with the new options after each successful reload. */
  onReload(listener: TlsReloadListener): void {
    this.#listeners.add(listener);
  }

  /** Starts checking the files every `reloadIntervalMs` (the timer does not keep the process alive). */
  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => this.check(), this.#config.reloadIntervalMs);
    this.#timer.unref();
  }

  /** Stops checking; safe twice and before `start`. */
  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Reloads when the files changed since the last look; returns whether new options were handed out. */
  check(): boolean {
    const stamp = this.#currentStamp();
    if (stamp === this.#stamp) return false;
    this.#stamp = stamp;
    let options: ServerTlsOptions;
    try {
      options = loadServerTls(this.#config, this.#path);
    } catch (err) {
      this.#log.warn({ err: errorMessage(err) }, `${this.#path}: changed certificate files cannot be used; the previous certificate stays in use`);
      return false;
    }
    this.#options = options;
    for (const listener of this.#listeners) {
      try {
        listener(options);
      } catch (err) {
        this.#log.warn({ err: errorMessage(err) }, `${this.#path}: the reloaded certificate was refused; connections may still get the previous one`);
        return false;
      }
    }
    this.#log.info({ certificate: describeCertificate(options.cert), key: this.#path }, 'TLS certificate reloaded');
    return true;
  }

  #currentStamp(): string {
    const files = [this.#config.certFile, this.#config.keyFile, ...(this.#config.clientCaFile === undefined ? [] : [this.#config.clientCaFile])];
    return files
      .map((f) => {
        try {
          const s = statSync(resolve(f), { bigint: true });
          return `${s.ino}:${s.size}:${s.mtimeNs}`;
        } catch {
          return 'missing';
        }
      })
      .join('|');
  }
}
