import http from "node:http";
import https from "node:https";
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import type { AllowedPeerHost, Settings } from "../../settings";

/**
 * How this server reaches other associations' servers (docs/federation.md "Addresses"). An
 * address comes from an invitation code or from another server's word, so it is somebody else's
 * choice: before any connection, its host is resolved once and every address it names must be a
 * public one (or one the operator allows); the connection then goes to that very address, never
 * to what a second lookup might answer (DNS rebinding). Whatever fails on the way (an address
 * refused, a name unknown, a port closed, a timeout, a certificate refused) fails alike, so that
 * an owner's session cannot be used to map the server's network.
 */

/** A host name's addresses, as the system's resolver gives them. */
export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;

export interface PeerRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface PeerAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export type PeerSend = (request: PeerRequest) => Promise<PeerAnswer>;

/**
 * A test seam: a resolver of the test's own (so that no test asks a real DNS server, nor ever
 * connects to an address it names), and a wrapper of every request (a test loses one on the
 * way). Unset in production.
 */
export interface PeerSeam {
  resolve?: Resolve;
  wrap?: (request: PeerRequest, send: PeerSend) => Promise<PeerAnswer>;
}

export interface PeerNet {
  /** FEDERATION_ALLOW_HOSTS: the addresses that are not public the operator lets this server reach. */
  allowHosts: readonly AllowedPeerHost[];
  /** FEDERATION_ALLOW_LOOPBACK_HTTP: this machine's loopback addresses may be reached, over plain HTTP too. */
  allowLoopbackHttp: boolean;
  timeoutMs: number;
  resolve: Resolve;
  /** Sends a request to another server once its address passed, or fails with PeerUnreachable. */
  send: PeerSend;
}

/** How long this server waits for another's answer, its address resolved and connected. */
export const PEER_TIMEOUT_MS = 10_000;
/** The longest answer read from another server: every answer of the protocol is a few kilobytes. */
const ANSWER_MAX_BYTES = 1024 * 1024;

/** Every way of not reaching another server, told apart nowhere. */
export class PeerUnreachable extends Error {
  constructor() {
    super("the other server could not be reached");
  }
}

const systemResolve: Resolve = (host) => lookup(host, { all: true, verbatim: true });

export function peerNet(settings: Settings, seam: PeerSeam = {}, timeoutMs = PEER_TIMEOUT_MS): PeerNet {
  const net: PeerNet = {
    allowHosts: settings.federation.allowHosts,
    allowLoopbackHttp: settings.federation.allowLoopbackHttp,
    timeoutMs,
    resolve: seam.resolve ?? systemResolve,
    send: (request) => sendChecked(net, request),
  };
  if (seam.wrap) {
    const wrap = seam.wrap;
    const direct = net.send;
    net.send = (request) => wrap(request, direct);
  }
  return net;
}

// Global unicast, where every public IPv6 address is: the rest (IPv4-compatible, 6to4 and Teredo
// tunnels, NAT64...) reaches somewhere else than it names.
const GLOBAL_UNICAST_V6 = { global: ipaddr.IPv6.parseCIDR("2000::/3") };

/**
 * Whether an address is a public one: ipaddr.js's classification of the special-purpose ranges
 * (loopback, private, shared, link-local with the cloud metadata address, unique-local,
 * multicast, unspecified, reserved, documentation, benchmarking...), which leaves "unicast". An
 * IPv4-mapped IPv6 address is judged as the IPv4 address it maps.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address);
  if (ip.range() !== "unicast") return false;
  return ip.kind() === "ipv4" || ipaddr.subnetMatch(ip, GLOBAL_UNICAST_V6, "other") === "global";
}

const isLoopback = (address: string) => ipaddr.isValid(address) && ipaddr.process(address).range() === "loopback";

const defaultPort = (url: URL) => Number(url.port || (url.protocol === "https:" ? 443 : 80));

/** Whether an entry of FEDERATION_ALLOW_HOSTS names this address (or the host name it was resolved from) and port. */
function allowedByOperator(entries: readonly AllowedPeerHost[], url: URL, host: string, address: string): boolean {
  const ip = ipaddr.process(address);
  return entries.some((e) => {
    if (e.port !== undefined && e.port !== defaultPort(url)) return false;
    if (e.kind === "name") return e.name === host.toLowerCase();
    if (e.kind === "range") return ipaddr.subnetMatch(ip, { allowed: e.range }, "other") === "allowed";
    return ip.toNormalizedString() === e.address;
  });
}

/** Whether this server may connect to `address` for `url`: plain HTTP to loopback only, and only when the operator said so. */
export function addressAllowed(net: Pick<PeerNet, "allowHosts" | "allowLoopbackHttp">, url: URL, host: string, address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  if (url.protocol === "http:") return net.allowLoopbackHttp && isLoopback(address);
  if (url.protocol !== "https:") return false;
  if (net.allowLoopbackHttp && isLoopback(address)) return true;
  return isPublicAddress(address) || allowedByOperator(net.allowHosts, url, host, address);
}

function beforeDeadline<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(new PeerUnreachable());
    const stop = () => reject(new PeerUnreachable());
    signal.addEventListener("abort", stop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", stop));
  });
}

/**
 * The request, to the one address its host was checked at: resolved once here (a literal address
 * is its own), every address it gave checked, and the connection made to the first through a
 * lookup that answers only it. A certificate is still checked against the host's name.
 */
async function sendChecked(net: PeerNet, request: PeerRequest): Promise<PeerAnswer> {
  const signal = AbortSignal.timeout(net.timeoutMs);
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    throw new PeerUnreachable();
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  let addresses: { address: string; family: number }[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await beforeDeadline(net.resolve(host), signal);
  } catch {
    throw new PeerUnreachable();
  }
  // One address refused is the whole name refused: a name that answers a public address and a
  // private one is somebody's way in.
  const target = addresses[0];
  if (!target || !addresses.every((a) => addressAllowed(net, url, host, a.address))) throw new PeerUnreachable();
  try {
    return await connect(url, host, target, request, signal);
  } catch {
    throw new PeerUnreachable();
  }
}

function connect(url: URL, host: string, target: { address: string; family: number }, request: PeerRequest, signal: AbortSignal): Promise<PeerAnswer> {
  const family = target.family === 6 ? 6 : 4;
  const options: https.RequestOptions = {
    hostname: host,
    port: defaultPort(url),
    path: url.pathname + url.search,
    method: request.method,
    headers: request.headers,
    signal,
    // The address checked, and no other: Node would otherwise look the name up again.
    lookup: ((_name: string, opts: { all?: boolean }, done: (...args: unknown[]) => void) =>
      opts.all ? done(null, [{ address: target.address, family }]) : done(null, target.address, family)) as unknown as https.RequestOptions["lookup"],
    ...(isIP(host) ? {} : { servername: host }),
  };
  return new Promise<PeerAnswer>((resolve, reject) => {
    const req = (url.protocol === "https:" ? https : http).request(options, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > ANSWER_MAX_BYTES) req.destroy(new PeerUnreachable());
        else chunks.push(chunk);
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
      // Cut before its end: no answer (a settled promise ignores this once it ended).
      res.on("close", () => (res.complete ? undefined : reject(new PeerUnreachable())));
    });
    req.on("error", reject);
    req.end(request.body);
  });
}
