import { createServer, type IncomingMessage } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';

/**
 * A forward proxy on 127.0.0.1 that tunnels (CONNECT) to where it is asked, and remembers each target (host:port);
 * with `refuse`, it answers every CONNECT with that status instead (407: the proxy wants credentials).
 */
export async function startConnectProxy(
  options: { refuse?: number } = {},
): Promise<{ url: string; tunnels: string[]; close: () => Promise<void> }> {
  const tunnels: string[] = [];
  // A tunnel is no HTTP connection the server closes on its own: each one's sockets, ended at close.
  const sockets = new Set<Socket>();
  const proxy = createServer((_req, res) => res.writeHead(405).end());
  proxy.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    tunnels.push(req.url ?? '');
    sockets.add(client);
    if (options.refuse !== undefined) {
      client.write(`HTTP/1.1 ${options.refuse} Refused\r\nProxy-Authenticate: Basic realm="proxy"\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      sockets.add(upstream);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((res) => proxy.listen(0, '127.0.0.1', () => res()));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    tunnels,
    close: async () => {
      for (const s of sockets) s.destroy();
      proxy.closeAllConnections();
      await new Promise((res) => proxy.close(res));
    },
  };
}
