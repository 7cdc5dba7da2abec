// Who may reach the owner's HTTP server, decided before the token is even looked at: the address
// it binds (one every other Lore process can reach, since they all connect to 127.0.0.1), and per
// request the Host and Origin headers, so a web page that rebinds its name to 127.0.0.1 (DNS
// rebinding) or posts from another site is refused with 403. Addresses are parsed, not matched
// by prefix: "127.evil.example" is a name, not a loopback address.

import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';
import { LoreError } from '../engine';

/** Where every Lore process looks for the owner (owner.ts connects here). */
export const OWNER_CONNECT_HOST = '127.0.0.1';
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);
const WILDCARDS = new Set(['0.0.0.0', '::']);

export function isLoopback(host: string): boolean {
  const address = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (address === 'localhost') return true;
  const family = isIP(address);
  if (family === 4) return address.split('.')[0] === '127';
  if (family === 6) {
    // The URL parser writes an IPv6 address in its one canonical form (0:0::1 → ::1).
    const canonical = new URL(`http://[${address}]/`).hostname;
    return canonical === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(canonical);
  }
  return false;
}

/**
 * The address to listen on for `--host`. Only addresses the other Lore processes reach at
 * 127.0.0.1 are accepted: 127.0.0.1 itself (or localhost), and with allowRemote the wildcards.
 */
export function bindAddress(host: string | undefined, allowRemote = false): string {
  if (host === undefined || host === OWNER_CONNECT_HOST || host === 'localhost') return OWNER_CONNECT_HOST;
  const loopback = isLoopback(host);
  if (!loopback && !allowRemote) {
    throw new LoreError(
      'INVALID_INPUT',
      `refusing to listen on ${host}: Lore serves loopback only`,
      'to expose it anyway pass --allow-remote (the bearer token is still required)',
    );
  }
  if (WILDCARDS.has(host)) return host;
  if (!isIP(host.replace(/^\[|\]$/g, ''))) {
    throw new LoreError(
      'INVALID_INPUT',
      `--host ${host} is not an IP address`,
      `pass ${OWNER_CONNECT_HOST} (the default)${allowRemote ? ', 0.0.0.0 or ::' : ''}`,
    );
  }
  throw new LoreError(
    'INVALID_INPUT',
    `--host ${host} would make the store unreachable: every other ` +
      `Lore process (the CLI, lore mcp, the editor) connects to the ` +
      `owner at ${OWNER_CONNECT_HOST}`,
    `leave --host out ` +
      `(${OWNER_CONNECT_HOST})${allowRemote ? ', or listen on every address with --host 0.0.0.0 or --host ::' : ''}`,
  );
}

export interface OriginPolicy {
  port: number;
  /** Bound beyond loopback (--allow-remote): any Host is accepted, but an Origin must still be this server's own. */
  remote: boolean;
}

/** Why a request is refused (for the 403 body), or null when its Host and Origin are this server's. */
export function refusedOrigin(req: IncomingMessage, policy: OriginPolicy): string | null {
  const host = req.headers.host;
  if (!host) return 'a request without a Host header';
  const authority = host.toLowerCase();
  if (!policy.remote && !loopbackAuthority(authority, policy.port))
    return `Host ${host} is not this loopback server (DNS rebinding?)`;
  const origin = req.headers.origin;
  if (origin === undefined) return null;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return `Origin ${origin} is not a URL`;
  }
  if (parsed.protocol !== 'http:') return `Origin ${origin} is another site`;
  const originAuthority = parsed.host.toLowerCase();
  const own = policy.remote ? originAuthority === authority : loopbackAuthority(originAuthority, policy.port);
  return own ? null : `Origin ${origin} is another site`;
}

function loopbackAuthority(authority: string, port: number): boolean {
  const at = authority.lastIndexOf(':');
  if (at < 0 || authority.endsWith(']')) return false;
  return LOOPBACK_NAMES.has(authority.slice(0, at)) && authority.slice(at + 1) === String(port);
}
