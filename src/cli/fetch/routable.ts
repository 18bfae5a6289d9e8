/**
 * Whether this machine has a route to `address` now: a UDP socket connected
 * to it (the kernel picks a route and a source address, nothing is sent).
 * `fetch` asks it of an address it reached before, to tell an origin this
 * machine cannot reach (an IPv6-only site without IPv6 here) from a machine
 * that reaches nothing (its network down).
 */
import { createSocket } from 'node:dgram'
import { isIP } from 'node:net'

export function routable(address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createSocket(isIP(address) === 6 ? 'udp6' : 'udp4')
    let over = false
    const done = (ok: boolean): void => {
      if (over) return
      over = true
      socket.close()
      resolve(ok)
    }
    socket.on('error', () => done(false))
    socket.connect(9, address, (err?: Error) => done(!err))
  })
}
