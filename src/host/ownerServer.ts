// Serving a store as its owner: the store opens (taking the owner lock) on first use or at once,
// then the loopback HTTP server starts and its port is published in owner.json so other Lore
// processes become clients instead of fighting over the database.

import type { Logger } from '../engine';
import { startHttpServer, type RunningHttpServer } from './httpServer';
import { attachEmbedder } from './embedSettings';
import type { OpenStore } from './openStore';
import { OwnerEvents, driftEvent } from './ownerEvents';
import { OwnerWatch } from './ownerWatch';
import { OwnedStoreAccess } from './storeAccess';

export interface OwnerServerOptions {
  workspace: string | null;
  home?: string;
  door: string;
  logger: Logger;
  host?: string;
  port?: number;
  allowRemote?: boolean;
  /** Loads the embedding model for the opened store; default: from the environment (LORE_MODEL…). */
  attachEmbedder?: (store: OpenStore) => Promise<() => Promise<void>>;
  /** Keep the index current from file events once a first index has run (`lore serve`: ownerWatch.ts). */
  watchWorkspace?: boolean;
  /** The private pipe to the editor that started this owner: where a person's act's code goes (personConfirm.ts). */
  toParent?: (line: string) => void;
}

export interface OwnerServer {
  access: OwnedStoreAccess;
  /** What happens to the store, as it happens (ownerEvents.ts); streamed to clients at GET /events. */
  events: OwnerEvents;
  /** The owner's reaction to file changes (with `watchWorkspace`, once the store has opened). */
  watcher(): OwnerWatch | undefined;
  /** The HTTP server, listening once the store has opened (call access.open() first). */
  http(): Promise<RunningHttpServer>;
  close(): Promise<void>;
}

export function ownerServer(options: OwnerServerOptions): OwnerServer {
  let started: Promise<RunningHttpServer> | undefined;
  let releaseEmbedder: Promise<() => Promise<void>> | undefined;
  let watcher: OwnerWatch | undefined;
  const events = new OwnerEvents();
  const hinted = (paths: string[]): void => hint(paths, watcher, access, events, options.logger);
  const access: OwnedStoreAccess = new OwnedStoreAccess({
    workspace: options.workspace,
    home: options.home,
    door: options.door,
    logger: options.logger,
    onChange: () => events.dataChanged(),
    onOpen: (store) => {
      if (options.watchWorkspace) watcher = new OwnerWatch(access, store.paths.workspaceRoot, options.logger, events);
      // The model loads in the background: lexical recall serves until it is ready.
      releaseEmbedder = (
        options.attachEmbedder
          ? options.attachEmbedder(store)
          : attachEmbedder(store.engine, store.paths.home, options.logger)
      ).catch((error) => {
        options.logger.warn(`no embeddings: ${(error as Error).message}`);
        return async () => {};
      });
      // Served once drift's symbol parser has loaded: until then a symbol fingerprinted by it reads
      // as current, so a client's drift check right after the start would miss a change.
      started = store.symbols
        .catch(() => undefined)
        .then(() =>
          startHttpServer({
            access,
            workspaceRoot: () => store.paths.workspaceRoot,
            // The lock's token guards the HTTP door too; it lives only in the 0600 owner.json.
            token: store.lock.info.token,
            mcpToken: store.lock.info.mcp_token,
            host: options.host,
            port: options.port,
            allowRemote: options.allowRemote,
            logger: options.logger,
            files: watcher && ((rules) => watcher!.watch.source(rules)),
            events,
            toParent: options.toParent,
            changed: (paths) => hinted(paths),
          }),
        );
      started.then(
        (server) => {
          try {
            store.lock.publish(server.port);
          } catch (error) {
            // A full disk: the lock retries each second (ownerLock.ts); until then clients wait.
            options.logger.warn(`could not write the port to owner.json yet: ${(error as Error).message}`);
          }
        },
        (error) => options.logger.error(`could not start the HTTP server: ${(error as Error).message}`),
      );
    },
  });
  return {
    access,
    events,
    watcher: () => watcher,
    http: () => started ?? Promise.reject(new Error('the store is not open: call access.open() first')),
    close: async () => {
      if (started) await (await started.catch(() => undefined))?.close();
      await watcher?.close();
      if (releaseEmbedder) await (await releaseEmbedder)();
      access.close();
    },
  };
}

/**
 * A client's hint that files changed: the watcher's one reaction when the owner watches; an owner
 * that does not (`lore mcp`) checks drift for them (in slices: it keeps answering) and says what it found.
 */
function hint(
  paths: string[],
  watcher: OwnerWatch | undefined,
  access: OwnedStoreAccess,
  events: OwnerEvents,
  logger: Logger,
): void {
  if (watcher) return watcher.hint(paths);
  const check = async () => {
    const findings = await access.use((engine) => engine.driftCheckInSlices(paths));
    events.emit(driftEvent(paths, findings));
  };
  check().catch((error) => logger.warn(`drift check of ${paths.length} hinted path(s) failed: ${error.message}`));
}
