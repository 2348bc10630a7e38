// The ids of the requests an MCP server still works on (docs/mcp.md): a request under the id of one taken and not yet
// answered, or cancelled while its handler still runs, would be answered with the other's arguments or result.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

type Id = string | number;

/**
 * The ids of requests taken and not yet answered, or cancelled while their handler still runs: that goes on until it
 * notices (a write ends whole), and the SDK would give its result to a request sent meanwhile under its id.
 * `unanswered` holds the ids taken and neither answered nor cancelled.
 */
export class WorkingIds {
  readonly #working = new Set<Id>();
  /** The ids whose handler, set once `watch` wrapped the server, still runs. */
  readonly #running = new Set<Id>();

  constructor(private readonly unanswered: ReadonlySet<Id>) {}

  /** Each handler set from now on frees its id when it is done, if its request was cancelled meanwhile. */
  watch(server: Server): void {
    const setRequestHandler = server.setRequestHandler.bind(server);
    server.setRequestHandler = ((schema, handler) =>
      setRequestHandler(schema, (request, extra) => {
        const id = extra.requestId;
        this.#running.add(id);
        let answer: ReturnType<typeof handler>;
        try {
          answer = handler(request, extra);
        } catch (error) {
          answer = Promise.reject(error);
        }
        // Cancelled, it gets no answer: its id is free once its handler is done. The answer itself is returned as it
        // is, so that the SDK sends it as soon as it is made, before a stop closes the transport.
        Promise.resolve(answer)
          .finally(() => {
            this.#running.delete(id);
            if (!this.unanswered.has(id)) this.#working.delete(id);
          })
          .catch(() => {});
        return answer;
      })) as typeof server.setRequestHandler;
  }

  has(id: Id): boolean {
    return this.#working.has(id);
  }

  taken(id: Id): void {
    this.#working.add(id);
  }

  answered(id: Id): void {
    this.#working.delete(id);
  }

  /**
   * A request that reached no handler set once watched (the SDK's own ping, params that fail the schema) is over once
   * the SDK has heard its cancellation, a turn of the loop later: its id is free then, or it would be refused forever.
   */
  cancelled(id: Id): void {
    setImmediate(() => {
      if (!this.#running.has(id) && !this.unanswered.has(id)) this.#working.delete(id);
    });
  }
}
