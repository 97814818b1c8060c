import net from "node:net";

/** One client's connection through the proxy: its socket and the one to PostgreSQL. */
interface Pair {
  client: net.Socket;
  server: net.Socket;
  /** The server's gone: the client's next message is answered with a reset (as a dead peer's would be). */
  dead: boolean;
  /** The server's answers are swallowed until its ReadyForQuery, then the client's connection is reset. */
  swallowing: Buffer | undefined;
  onSwallowed: (() => void) | undefined;
}

/** ReadyForQuery ('Z', length 5, a status byte): the end of PostgreSQL's answer to a query, its implicit transaction committed. */
const endsWithReadyForQuery = (b: Buffer) =>
  b.length >= 6 && b[b.length - 6] === 0x5a && b.readInt32BE(b.length - 5) === 5 && [0x49, 0x54, 0x45].includes(b[b.length - 1]!);

/**
 * A TCP proxy between a pool and the test PostgreSQL, to lose connections the ways a failover
 * loses them, on the suite's own database and without Patroni: a connection whose server went
 * away without a word (found dead at its next message), a statement done but its answer lost (the
 * primary died as it committed), and no database at all for a while (HAProxy with no primary
 * behind it accepts a connection and closes it).
 */
export class DbProxy {
  private readonly pairs = new Set<Pair>();
  private down = false;
  /** A host that no longer answers (goSilent): connections accepted and left unanswered, neither open nor failed. */
  private readonly silent = new Set<net.Socket>();
  private silentMode = false;
  private trap: { marker: Buffer; done: () => void } | undefined;
  /** Connections accepted and closed at once while the database was down. */
  refused = 0;
  /** Client connections reset: found dead, or cut once their answer was swallowed. */
  resets = 0;
  /** Connections clients opened through the proxy, whatever became of them. */
  accepted = 0;

  private constructor(
    private readonly listener: net.Server,
    readonly url: string,
  ) {}

  /** A proxy to the PostgreSQL of `targetUrl`; its `url` is the same database through the proxy. */
  static async start(targetUrl: string): Promise<DbProxy> {
    const target = new URL(targetUrl);
    const proxy: { it?: DbProxy } = {};
    const listener = net.createServer((client) => proxy.it!.accept(client, target));
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    const url = new URL(targetUrl);
    url.hostname = "127.0.0.1";
    url.port = String((listener.address() as net.AddressInfo).port);
    proxy.it = new DbProxy(listener, url.toString());
    return proxy.it;
  }

  private accept(client: net.Socket, target: URL): void {
    this.accepted++;
    client.on("error", () => undefined);
    if (this.silentMode) {
      this.silent.add(client);
      return;
    }
    if (this.down) {
      this.refused++;
      client.destroy();
      return;
    }
    const server = net.connect(Number(target.port || 5432), target.hostname);
    server.on("error", () => client.destroy());
    const pair: Pair = { client, server, dead: false, swallowing: undefined, onSwallowed: undefined };
    this.pairs.add(pair);
    const forget = () => {
      this.pairs.delete(pair);
      client.destroy();
      server.destroy();
    };
    client.on("close", forget);
    server.on("close", () => {
      if (!pair.dead) forget();
    });
    client.on("data", (d: Buffer) => {
      if (pair.dead) {
        this.resets++;
        this.pairs.delete(pair);
        client.resetAndDestroy();
        return;
      }
      const trap = this.trap;
      if (trap && d.includes(trap.marker)) {
        this.trap = undefined;
        pair.swallowing = Buffer.alloc(0);
        pair.onSwallowed = trap.done;
      }
      server.write(d);
    });
    server.on("data", (d: Buffer) => {
      if (!pair.swallowing) {
        client.write(d);
        return;
      }
      pair.swallowing = Buffer.concat([pair.swallowing, d]);
      if (!endsWithReadyForQuery(pair.swallowing)) return;
      this.resets++;
      this.pairs.delete(pair);
      server.destroy();
      client.resetAndDestroy();
      pair.onSwallowed?.();
    });
  }

  /**
   * Every open connection's server goes away without its client hearing of it (a machine gone,
   * an address moved to another): the client finds out at its next message, reset.
   */
  cutSilently(): void {
    for (const p of this.pairs) {
      p.dead = true;
      p.server.destroy();
    }
  }

  /**
   * The next client message holding `marker` (a prepared statement's name, NUL-terminated as the
   * protocol sends it) goes to PostgreSQL, which runs it; its answer never reaches the client,
   * whose connection is reset once PostgreSQL is done: the outcome is unknown to the client.
   * Resolves when that has happened.
   */
  loseAnswerTo(marker: string): Promise<void> {
    return new Promise((done) => (this.trap = { marker: Buffer.from(`${marker}\0`), done }));
  }

  /** No database: every open connection closed, new ones accepted and closed at once. */
  stop(): void {
    this.down = true;
    for (const p of this.pairs) {
      p.client.destroy();
      p.server.destroy();
    }
    this.pairs.clear();
  }

  /** Connections waiting on a host that never answers (goSilent). */
  get unanswered(): number {
    return this.silent.size;
  }

  /**
   * A database host gone without a word (its machine off, a network cut): every open connection
   * closed, and a new one neither opened nor refused, left waiting as a connection to a host that
   * never answers waits.
   */
  goSilent(): void {
    this.stop();
    this.silentMode = true;
  }

  /** The database back. */
  restart(): void {
    this.down = false;
    this.silentMode = false;
    for (const c of this.silent) c.destroy();
    this.silent.clear();
  }

  async close(): Promise<void> {
    this.stop();
    await new Promise((r) => this.listener.close(r));
  }
}
