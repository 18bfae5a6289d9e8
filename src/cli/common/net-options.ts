/**
 * The network options of every command that fetches (`fetch`, and `check`,
 * `lint`, `filter` given a ROBOTS URL): curl's `--resolve` and
 * `--connect-to`, `--dns-server`, and the Node transport they make
 * (`robots-automaton/node`'s `createNodeTransport`: its own resolver, the
 * routes, the address policy on the addresses it connects to).
 */
import { createNodeTransport, type NodeTransport } from '../../node.js'
import { UsageError } from './cli-error.js'
import { optionValues, type OptionSpec, type ParsedArgs } from './args.js'
import { ConnectRules, parseConnectTo, parseResolve } from './connect-rules.js'

/** `--resolve`, `--connect-to`, `--dns-server`. */
export const NET_OPTIONS: readonly OptionSpec[] = [
  { name: 'resolve', value: true, multiple: true },
  { name: 'connect-to', value: true, multiple: true },
  { name: 'dns-server', value: true, multiple: true },
]

/** The help lines of {@link NET_OPTIONS}. */
export const NET_HELP = `  --resolve HOST:PORT:ADDRESS[,ADDRESS...]
                     connect to ADDRESS for HOST:PORT (curl's option; HOST
                     '*' is every name; repeatable); a name routed so is
                     the user's choice: its address is never refused
  --connect-to HOST1:PORT1:HOST2:PORT2
                     connect to HOST2:PORT2 for HOST1:PORT1 (curl's option;
                     an empty part is any host or port, or the request's own)
  --dns-server ADDRESS[:PORT]
                     ask this DNS server for names (repeatable; default the
                     system's, from /etc/resolv.conf; /etc/hosts is not read)`

/** Checks one `--dns-server` value (ADDRESS or ADDRESS:PORT, `[V6]:PORT`). */
function dnsServer(value: string): string {
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3})(?::(\d{1,5}))?$/.exec(value)
  const v6 = /^\[([0-9A-Fa-f:.]+)\](?::(\d{1,5}))?$/.exec(value)
  const plain6 = /^[0-9A-Fa-f:.]+$/.test(value) && value.includes(':') && !v4
  const port = v4?.[2] ?? v6?.[2]
  const octetsOk = v4 === null || v4[1]!.split('.').every((o) => Number(o) <= 255)
  if ((v4 === null && v6 === null && !plain6) || !octetsOk || (port !== undefined && !(Number(port) >= 1 && Number(port) <= 65535))) {
    throw new UsageError(`option '--dns-server' takes ADDRESS or ADDRESS:PORT, numeric ([IPv6]:PORT) (got '${value}')`)
  }
  return value
}

/** The `--dns-server` values, checked. */
export function dnsServers(args: ParsedArgs): string[] {
  return optionValues(args, 'dns-server').map(dnsServer)
}

/** The routes of `--resolve` and `--connect-to`. */
export function connectRules(args: ParsedArgs): ConnectRules {
  return new ConnectRules(optionValues(args, 'resolve').map(parseResolve), optionValues(args, 'connect-to').map(parseConnectTo))
}

/** The Node transport of a command's network options. */
export function netTransport(args: ParsedArgs, options: { perAddress: number; connectTimeoutMs: number }): NodeTransport {
  const rules = connectRules(args)
  const servers = dnsServers(args)
  return createNodeTransport({
    perAddress: options.perAddress,
    connectTimeoutMs: options.connectTimeoutMs,
    route: rules.any ? (host, port) => rules.route(host, port) : undefined,
    dns: servers.length > 0 ? { servers } : {},
  })
}
