/**
 * A `--robots-dir` (or `pack DIR`) file named by an IPv6 address without
 * its brackets is no host name; the warning says how to name it.
 */
import { describe, expect, it } from 'vitest'
import { hostKeyOfName } from '../../../src/cli/hosts/host-names.js'
import { canonicalHostOrNull, hostRefusal } from '../../../src/url/host.js'

const enc = new TextEncoder()

describe("regression: a file named '::1' was said to hold a port ('a host ends before it (a port is not part of it)')", () => {
  it('the reason names the IPv6 address and the name to give it, [::1]; other names with a colon keep theirs', () => {
    expect(hostKeyOfName(enc.encode('::1'))).toEqual({ reason: 'not a host name: it is an IPv6 address, which a host writes in brackets: [::1]' })
    expect(hostRefusal('2001:DB8::1')).toBe('it is an IPv6 address, which a host writes in brackets: [2001:DB8::1]')
    expect(hostRefusal('::ffff:1.2.3.4')).toBe('it is an IPv6 address, which a host writes in brackets: [::ffff:1.2.3.4]')
    expect(canonicalHostOrNull('::1')).toBeNull()
    expect(hostRefusal('example.com:8080')).toBe("it holds ':': a host ends before it (a port is not part of it)")
    expect(hostRefusal('ab:80')).toBe("it holds ':': a host ends before it (a port is not part of it)")
  })
})
