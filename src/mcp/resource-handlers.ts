// The resources of `agents mcp`: the effective sets listed, read and subscribed to, and the store watched so that the
// client is told when a change reaches the list or a subscribed set.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { InvariantService } from '../service/invariant-service.ts';
import { extendsCacheDir } from '../store/git-dir.ts';
import { resourceError } from './error-answers.ts';
import { ASK_LESS, bounded } from './line-limit.ts';
import type { Target } from './resources.ts';
import { readingStore } from './store-here.ts';
import type { ToolContext } from './tool.ts';
import { oneBatchAtATime, StoreWatcher } from './watch.ts';

/** What the server loads after `initialize` is answered: the tools, the resources, and the services they use. */
export interface Parts {
  tools: typeof import('./tools.ts');
  resources: typeof import('./resources.ts');
  service: InvariantService;
  ctx: ToolContext;
}

/** What the resources are served with: the server's store, its parts loaded on first use, and its bookkeeping. */
export interface ResourceServing {
  root: string;
  /** The start of the commands an error answer names. */
  agents: string;
  stderr: { write(chunk: string): unknown };
  settleMs?: number;
  parts: () => Promise<Parts>;
  /** Holds the server open until the promise settles (a change being reported). */
  track: <T>(p: Promise<T>) => Promise<T>;
}

/**
 * Registers the resource requests on `server`. The watcher it returns is started once the client is initialized, and
 * closed when the server ends; `currentList` reads the list of resources, which a change is compared with.
 */
export function serveResources(
  server: Server,
  { root, agents, stderr, settleMs, parts, track }: ResourceServing,
): { watcher: StoreWatcher; currentList: () => Promise<unknown> } {
  let listed: string | undefined;
  const currentList = async () => {
    const { resources, service } = await parts();
    const targets = await resources.listTargets(service);
    listed = targets.map((t) => resources.resourceUri(t, 'md')).join('\n');
    return targets;
  };

  server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    try {
      const targets = await readingStore(root, currentList);
      const { resources } = await parts();
      const { page, next } = resources.listingPage(targets, request.params?.cursor);
      return { resources: resources.listedResources(page), ...(next !== undefined ? { nextCursor: next } : {}) };
    } catch (error) {
      throw resourceError(error, agents);
    }
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: (await parts()).resources.TEMPLATES.map((t) => ({ ...t })),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    try {
      const { resources, ctx } = await parts();
      namedTarget(resources, request.params.uri);
      const read = await readingStore(root, () => resources.readResource(ctx, request.params.uri));
      return bounded({ contents: [read] }, ASK_LESS.resource);
    } catch (error) {
      throw resourceError(error, agents);
    }
  });

  /**
   * The target a resource URI names. One that names no target the store could hold (`agents://projects/Web/…`, a plan
   * id in lower case) is no resource, as an unknown project is none: not found, with the CLI's message.
   */
  const namedTarget = (resources: Parts['resources'], uri: string): Target => {
    try {
      return resources.parseUri(uri).target;
    } catch (error) {
      throw resourceError(error, agents, true);
    }
  };

  const subscribed = new Map<string, Target>();
  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    try {
      const { resources } = await parts();
      subscribed.set(request.params.uri, namedTarget(resources, request.params.uri));
    } catch (error) {
      throw resourceError(error, agents);
    }
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });

  const onBatch = async (paths: ReadonlySet<string>) => {
    const before = listed;
    await currentList();
    const { resources, service } = await parts();
    if (before !== undefined && before !== listed) await server.sendResourceListChanged();
    for (const [uri, target] of subscribed) {
      let planProject: string | undefined;
      if ('plan' in target)
        planProject = await service.readPlan(target.plan).then(
          (p) => p.project,
          () => undefined,
        );
      if ([...paths].some((p) => resources.affects(p, target, planProject))) await server.sendResourceUpdated({ uri });
    }
  };
  // A fetch of the policy sources changes the inherited sets without touching the store: their cache is watched too.
  const cache = extendsCacheDir(root);
  const watcher = new StoreWatcher(
    root,
    // A failure is told on stderr and the server goes on.
    oneBatchAtATime(
      (paths) => track(onBatch(paths)),
      (error) => stderr.write(`agents mcp: could not report a store change: ${(error as Error)?.message ?? String(error)}\n`),
    ),
    {
      ...(settleMs !== undefined ? { settleMs: settleMs } : {}),
      notice: (m) => stderr.write(`agents mcp: ${m}\n`),
      ...(cache !== undefined ? { cache } : {}),
    },
  );
  return { watcher, currentList };
}
