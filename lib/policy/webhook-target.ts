// Where the app may send a webhook: an address outside this machine and its network. A webhook URL
// is typed by an admin and fetched by the server, so without this check it reaches what only the
// server can: the database's port on loopback, a cloud's metadata service (169.254.169.254), the
// app's own API, the private network. The name is resolved and refused when any address it resolves
// to is loopback, private, link-local, unspecified, multicast or reserved (an IPv4 address written
// inside IPv6, ::ffff:127.0.0.1, is judged as the IPv4 it carries), or when it is the app itself.
//
// Checked when the URL is saved and again at each delivery (a name may resolve elsewhere by then);
// the delivery connects to the address checked here, not to a second resolution of the name. A name
// that does not resolve when saved is accepted (a receiver set up before its DNS record; nothing can
// be reached through it yet): the check at delivery judges what it resolves to then.
//
// A receiver on the private network (a self-hosted chat server) is allowed by naming its host in
// NOTIFY_WEBHOOK_ALLOWED_HOSTS. The app's own address is refused even then.
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { appBaseUrl, env } from "../env";

export interface TEgressRules {
  /** Hosts (as written in a URL, lowercase) allowed whatever they resolve to. */
  allowedHosts: readonly string[];
  /** The app's own addresses: host and port. */
  self: readonly { host: string; port: number }[];
}

export interface TResolvedTarget {
  url: URL;
  /** The address to connect to: one the check accepted. */
  address: string;
  family: 4 | 6;
}

export type TTargetVerdict =
  | { ok: true; target: TResolvedTarget }
  /** `unresolved`: the name has no address now, so nothing internal can be reached through it yet. */
  | { ok: false; why: string; unresolved?: true };

const INTERNAL = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this network", 0.0.0.0 included: connects to the local host
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // shared address space (carrier-grade NAT)
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local: cloud metadata services
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast included
] as const)
  INTERNAL.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated, still routed by some stacks)
  ["ff00::", 8], // multicast
  ["100::", 64], // discard
] as const)
  INTERNAL.addSubnet(net, prefix, "ipv6");

/** An IPv6 address's eight groups, or null. */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase().split("%")[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split(".").map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(":").map((g) => parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(tail);
  const groups = tail === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/** The IPv4 address an IPv6 one carries (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64, 6to4), if any. */
function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  if (!g) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(5) && g[5] === 0xffff) return v4(g[6]!, g[7]!);
  if (zeros(6) && (g[6] !== 0 || g[7]! > 1)) return v4(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4(g[6]!, g[7]!);
  if (g[0] === 0x2002) return v4(g[1]!, g[2]!);
  return null;
}

/** Whether an address (IPv4 or IPv6, as text) is one no webhook may reach. */
export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return INTERNAL.check(address, "ipv4");
  if (family !== 6) return true;
  const inner = embeddedIpv4(address);
  if (inner !== null && INTERNAL.check(inner, "ipv4")) return true;
  return INTERNAL.check(address.split("%")[0]!, "ipv6");
}

/** NOTIFY_WEBHOOK_ALLOWED_HOSTS and the app's own addresses, from the settings in force. */
export function egressRules(): TEgressRules {
  const e = env();
  const base = new URL(appBaseUrl(e));
  const self = [
    { host: base.hostname, port: portOf(base) },
    { host: "localhost", port: e.PORT },
    ...(e.HOSTNAME ? [{ host: e.HOSTNAME, port: e.PORT }] : []),
  ];
  return { allowedHosts: e.NOTIFY_WEBHOOK_ALLOWED_HOSTS ?? [], self };
}

function portOf(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
}

/** A URL's host without IPv6 brackets, lowercase. */
const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, "").toLowerCase();

async function resolveAll(host: string): Promise<{ address: string; family: 4 | 6 }[]> {
  if (isIP(host)) return [{ address: host, family: isIP(host) as 4 | 6 }];
  const found = await lookup(host, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family as 4 | 6 }));
}

/** Whether the target is the app itself: one of its names, or an address one of them resolves to, on its port. */
async function isSelf(host: string, port: number, addresses: readonly string[], rules: TEgressRules): Promise<boolean> {
  for (const self of rules.self) {
    if (self.port !== port) continue;
    const selfHost = self.host.replace(/^\[|\]$/g, "").toLowerCase();
    if (selfHost === host) return true;
    const selfAddresses = await resolveAll(selfHost).catch(() => []);
    if (selfAddresses.some((a) => addresses.includes(a.address))) return true;
  }
  return false;
}

/**
 * Resolves a webhook URL and judges it: refused (with the reason, for the admin's form and the job's
 * error) or accepted with the address to connect to.
 */
export async function checkWebhookTarget(raw: string, rules: TEgressRules = egressRules()): Promise<TTargetVerdict> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, why: "must be an http(s) URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, why: "must be an http(s) URL" };
  if (url.username || url.password) return { ok: false, why: "must not carry a user name or password" };
  const host = bareHost(url);
  let addresses: { address: string; family: 4 | 6 }[];
  try {
    addresses = await resolveAll(host);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) return { ok: false, why: `its host ${host} does not resolve`, unresolved: true };
  if (
    await isSelf(
      host,
      portOf(url),
      addresses.map((a) => a.address),
      rules,
    )
  )
    return { ok: false, why: "must not point at this app itself" };
  const allowed = rules.allowedHosts.includes(host);
  if (!allowed && addresses.some((a) => isInternalAddress(a.address)))
    return {
      ok: false,
      why: `must not point at an internal address (loopback, private, link-local or similar); name ${host} in NOTIFY_WEBHOOK_ALLOWED_HOSTS to allow a receiver on your own network`,
    };
  return { ok: true, target: { url, ...addresses[0]! } };
}
