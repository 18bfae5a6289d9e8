/**
 * Whether this machine has a route to `address` now: a UDP socket connected
 * to it (the kernel picks a route and a source address, nothing is sent).
 * `fetch` asks it of an address it reached before, to tell an origin this
 * machine cannot reach (an IPv6-only site without IPv6 here) from a machine
 * that reaches nothing (its network down).
 */
import { dgram } from '../../tools/built-ins.js'

export function routable(address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = dgram().createSocket(address.includes(':') ? 'udp6' : 'udp4')
    // No socket at all (no descriptor): no answer either.
    socket.on('error', () => resolve(false))
    socket.connect(9, address, (err?: Error) => {
      socket.close()
      resolve(!err)
    })
  })
}
