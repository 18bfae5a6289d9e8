/**
 * A tiny DNS server on 127.0.0.1 (UDP, `node:dgram`) for the tests: it
 * answers A and AAAA questions from a table of names, NXDOMAIN for a name
 * it does not know, a name with no record of the kind asked is NOERROR with
 * no answer (ENODATA), and it can stay silent (a time-out) for names listed
 * in `silent`, or answer REFUSED for those in `refused` and SERVFAIL for
 * those in `servfail` (a resolver with no upstream), or keep the answers
 * for names in `held` until `release(name)` sends them, or leave the first
 * questions of a name unanswered (`unanswered`: name → how many, as a
 * resolver still recursing), or deny every name, the root's included
 * (`denyAll`: a broken or captive resolver). The root (`''`) exists
 * otherwise (NOERROR, no record). Every question is
 * counted. Nothing here reaches another machine: the tests point their
 * resolver at it (`--dns-server`).
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram'
import { isIPv4, isIPv6 } from 'node:net'

export interface DnsTestServer {
  /** `127.0.0.1:PORT`, as `--dns-server` takes it. */
  readonly address: string
  readonly port: number
  /** Name (lowercase, no trailing dot) → addresses (IPv4 and IPv6 mixed). */
  readonly names: Map<string, string[]>
  /** Names never answered. */
  readonly silent: Set<string>
  /** Names answered REFUSED (RCODE 5), as a resolver answers a client it does not serve. */
  readonly refused: Set<string>
  /** Names answered SERVFAIL (RCODE 2), as a forwarding resolver answers when it reaches no upstream. */
  readonly servfail: Set<string>
  /** Name → how many of its next questions get no answer. */
  readonly unanswered: Map<string, number>
  /** Names whose answers wait for {@link release}. */
  readonly held: Set<string>
  /** Sends the answers kept for `name` (in `held`). */
  release(name: string): void
  /** Questions received, as `NAME TYPE` (`a.test A`). */
  readonly questions: string[]
  /** TTL of the answers, seconds. */
  ttl: number
  /** NXDOMAIN to every question, the root's included. */
  denyAll: boolean
  close(): Promise<void>
}

const TYPE_A = 1
const TYPE_AAAA = 28

/** The question of a query: its name, type and where it ends; undefined when malformed. */
function question(msg: Buffer): { name: string; type: number; end: number } | undefined {
  if (msg.length < 12 || msg.readUInt16BE(4) !== 1) return undefined
  const labels: string[] = []
  let at = 12
  for (;;) {
    if (at >= msg.length) return undefined
    const n = msg[at]!
    if (n === 0) break
    if (n > 63 || at + 1 + n > msg.length) return undefined
    labels.push(msg.subarray(at + 1, at + 1 + n).toString('latin1'))
    at += 1 + n
  }
  at++
  if (at + 4 > msg.length) return undefined
  return { name: labels.join('.').toLowerCase(), type: msg.readUInt16BE(at), end: at + 4 }
}

function ipv6Bytes(address: string): Buffer {
  const [head, tail] = address.split('::') as [string, string | undefined]
  const h = head === '' ? [] : head.split(':')
  const t = tail === undefined || tail === '' ? [] : tail.split(':')
  const groups = tail === undefined ? h : [...h, ...new Array<string>(8 - h.length - t.length).fill('0'), ...t]
  const out = Buffer.alloc(16)
  groups.forEach((g, i) => out.writeUInt16BE(parseInt(g, 16), i * 2))
  return out
}

/** The answer to `msg` (a query), or undefined to stay silent. */
function answer(server: DnsTestServer, msg: Buffer): Buffer | undefined {
  const q = question(msg)
  if (q === undefined) return undefined
  server.questions.push(`${q.name} ${q.type === TYPE_A ? 'A' : q.type === TYPE_AAAA ? 'AAAA' : q.type}`)
  const skip = server.unanswered.get(q.name) ?? 0
  if (skip > 0) server.unanswered.set(q.name, skip - 1)
  if (server.silent.has(q.name) || skip > 0) return undefined
  const known = server.denyAll ? undefined : server.names.get(q.name) ?? (q.name === '' ? [] : undefined)
  const records = (known ?? []).filter((a) => (q.type === TYPE_A ? isIPv4(a) : q.type === TYPE_AAAA ? isIPv6(a) : false))
  const header = Buffer.alloc(12)
  header.writeUInt16BE(msg.readUInt16BE(0), 0) // id
  // QR, opcode 0, AA, RD copied, RA; RCODE 3 (NXDOMAIN) for an unknown name, 5 (REFUSED) for a refused one, 2 (SERVFAIL).
  const rcode = server.refused.has(q.name) ? 5 : server.servfail.has(q.name) ? 2 : known === undefined ? 3 : 0
  header.writeUInt16BE(0x8000 | 0x0400 | (msg.readUInt16BE(2) & 0x0100) | 0x0080 | rcode, 2)
  header.writeUInt16BE(1, 4)
  const answers = rcode === 5 || rcode === 2 ? [] : records
  header.writeUInt16BE(answers.length, 6)
  const parts = [header, msg.subarray(12, q.end)]
  for (const a of answers) {
    const data = q.type === TYPE_A ? Buffer.from(a.split('.').map(Number)) : ipv6Bytes(a)
    const rr = Buffer.alloc(12)
    rr.writeUInt16BE(0xc00c, 0) // the name: a pointer to the question's
    rr.writeUInt16BE(q.type, 2)
    rr.writeUInt16BE(1, 4) // IN
    rr.writeUInt32BE(server.ttl, 6)
    rr.writeUInt16BE(data.length, 10)
    parts.push(rr, data)
  }
  return Buffer.concat(parts)
}

/** Starts a DNS server on 127.0.0.1 at a random port. */
export async function startDnsServer(names: Record<string, string[]> = {}): Promise<DnsTestServer> {
  const socket: Socket = createSocket('udp4')
  const server: DnsTestServer = {
    address: '',
    port: 0,
    names: new Map(Object.entries(names)),
    silent: new Set(),
    refused: new Set(),
    servfail: new Set(),
    held: new Set(),
    unanswered: new Map(),
    release(name) {
      for (const send of kept.get(name) ?? []) send()
      kept.delete(name)
    },
    questions: [],
    ttl: 300,
    denyAll: false,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  }
  const kept = new Map<string, (() => void)[]>()
  socket.on('message', (msg: Buffer, from: RemoteInfo) => {
    const reply = answer(server, msg)
    if (reply === undefined) return
    const send = (): void => socket.send(reply, from.port, from.address)
    const name = question(msg)!.name
    if (server.held.has(name)) kept.set(name, [...(kept.get(name) ?? []), send])
    else send()
  })
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve))
  const port = socket.address().port
  Object.assign(server, { port, address: `127.0.0.1:${port}` })
  return server
}
