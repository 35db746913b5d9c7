import net from "node:net";

/**
 * A TCP relay to a local port that can stop answering without refusing, as a network partition or
 * a stalled server does: after `hang()` bytes go nowhere and new connections get no answer, yet no
 * connection is closed (a stopped server refuses at once, which is another failure). `heal()` ends
 * the partition for new connections only: the ones it caught stay silent, as connections whose
 * packets a lost NAT or firewall state drops do.
 */
export interface TcpRelay {
  port: number;
  hang(): void;
  heal(): void;
  close(): Promise<void>;
}

export async function startTcpRelay(port: number): Promise<TcpRelay> {
  let hung = false;
  const sockets = new Set<net.Socket>();
  const silenced = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    if (hung) return;
    const upstream = net.connect(port, "127.0.0.1");
    sockets.add(upstream);
    client.on("data", (d) => silenced.has(client) || upstream.write(d));
    upstream.on("data", (d) => silenced.has(client) || client.write(d));
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      a.on("error", () => b.destroy());
      a.on("close", () => b.destroy());
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    hang: () => {
      hung = true;
      for (const s of sockets) silenced.add(s);
    },
    heal: () => {
      hung = false;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** `url` (a postgres:// URL on 127.0.0.1) through a new relay, and the relay. */
export async function relayedUrl(url: string): Promise<{ url: string; relay: TcpRelay }> {
  const u = new URL(url);
  const relay = await startTcpRelay(Number(u.port));
  u.port = String(relay.port);
  return { url: u.href, relay };
}
