import type { HostClass } from './address.js'
import type { RobotsFetchResult } from './outcome.js'
import { describeValue, RobotsInputError } from '../errors.js'

const VERDICT = {
  ok: 'ok',
  unavailable: 'unavailable, allow all',
  unreachable: 'unreachable, disallow all',
  'not-modified': 'not modified, rules kept',
  refused: 'refused, disallow all',
} as const

/** What a refused redirect target is, by the class of its host. */
const HOST_CLASS: Record<HostClass, string> = {
  loopback: 'a loopback host',
  unspecified: 'an unspecified address',
  private: 'a private address',
  'link-local': 'a link-local address',
  shared: 'a shared (CGNAT) address',
  reserved: 'a reserved address',
  'local-name': 'a local name',
}

/** One line explaining a fetch result, e.g. `unreachable, disallow all: HTTP 503 from https://a.example/robots.txt`. */
export function describeFetchResult(r: RobotsFetchResult): string {
  if (typeof r !== 'object' || r === null || !(r.outcome in VERDICT) || !Array.isArray(r.redirects)) {
    throw new RobotsInputError(`describeFetchResult takes a fetchRobots result, got ${describeValue(r)}`)
  }
  // No response to the last request (a network error, a time-out): it asked for where the last redirect pointed.
  const where = r.finalUrl ?? r.redirects[r.redirects.length - 1]?.location ?? r.url
  const hops = r.redirects.length
  const via = hops > 0 ? ` after ${hops} redirect${hops === 1 ? '' : 's'}` : ''
  let why: string
  switch (r.reason) {
    case 'success': {
      const t = r.robots.truncated ? `, truncated at ${r.robots.bytesRead} bytes` : ''
      why = `HTTP ${r.status} from ${where}${via}, ${r.robots.bytesRead} bytes${t}`
      break
    }
    case 'not-modified':
      why = `HTTP 304 from ${where}${via}, ${r.robots.bytesRead} bytes kept`
      break
    case 'too-many-redirects':
      why = `more than ${hops - 1} redirects (last: ${where} → ${r.redirects[hops - 1]?.location})`
      break
    case 'redirect-loop':
      why = `redirect loop (${where} → ${r.redirects[hops - 1]?.location})`
      break
    case 'redirect-without-location':
      why = `HTTP ${r.status} from ${where} without a Location header`
      break
    case 'redirect-invalid-location':
      why = `HTTP ${r.status} from ${where} with an invalid Location (${r.headers?.['location'] ?? 'not http(s)'})`
      break
    case 'redirect-blocked': {
      const hop = r.redirects[hops - 1]
      const blocked = hop?.blocked
      const what =
        blocked === 'filter' ? 'refused by redirectFilter' : `to ${blocked ? HOST_CLASS[blocked] : 'a non-public host'} refused`
      why = `redirect ${what} (${hop?.url} → ${hop?.location})`
      break
    }
    case 'incomplete-body': {
      const e = r.error
      const coding = r.headers?.['content-encoding']
      const how =
        e?.kind === 'decoding'
          ? `${coding ? `${coding} ` : ''}content coding cut short, corrupt or not decoded`
          : 'length differs from Content-Length'
      why = `incomplete body from ${where}${via}: ${how}: ${e?.message ?? ''}`
      break
    }
    case 'unexpected-not-modified':
      why = `HTTP 304 from ${where}${via} to a request that carried no validators (${r.outcome === 'not-modified' ? 'the rules held stand' : 'no rules held'})`
      break
    case 'address-refused': {
      const cls = r.error?.code as HostClass | undefined
      why = `not fetched: ${new URL(r.url).hostname} is ${cls !== undefined && cls in HOST_CLASS ? HOST_CLASS[cls] : 'a non-public address'} (${r.error?.message ?? 'address policy'})`
      break
    }
    case 'dns-error':
    case 'timeout':
    case 'network-error': {
      const e = r.error
      const code = e?.code ? ` ${e.code}` : ''
      const phase = e?.phase === 'body' ? ' while reading the body' : ''
      why =
        r.reason === 'timeout'
          ? `timeout${phase} fetching ${where}${via}: ${e?.message ?? ''}`
          : `${r.reason === 'dns-error' ? 'dns' : e?.kind ?? 'network'} error${code}${phase} fetching ${where}${via}: ${e?.message ?? ''}`
      break
    }
    default:
      why = `HTTP ${r.status} from ${where}${via}`
  }
  return `${VERDICT[r.outcome]}: ${why}`
}
