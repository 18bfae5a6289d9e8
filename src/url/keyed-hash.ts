/**
 * The one hash of host names and store keys: HalfSipHash-1-3 (a keyed PRF on
 * 32-bit words), keyed per process with random words, so that names that
 * collide cannot be built offline. Every hash table over names from input
 * (the store's key index, the command line's host index and host counter,
 * the parser's user-agent names) hashes here; nothing stored depends on the
 * key. Checksums (rules/serialise.ts) stay FNV-1a: they detect accidents and
 * must be the same in every process.
 */

/** Four random 32-bit words per realm, shared by every copy of this module loaded in it (the ESM and CJS bundles). */
const REALM_KEY = Symbol.for('robots-automaton.hash-key')

/** The key's words: `K0`, `K1` key the table hash, `K2`, `K3` the second hash (host fingerprints). */
let K0 = 0
let K1 = 0
let K2 = 0
let K3 = 0
/** `schemeHashOf` `http` and `https` under the current key, for `originHash` on the URL scan's fast path: made on first use (`schemesHashed`). */
let HTTP = 0
let HTTPS = 0
let schemesHashed = false

/** ASCII lower case of every byte. */
const LOWER = new Uint8Array(256)
for (let b = 0; b < 256; b++) LOWER[b] = b >= 0x41 && b <= 0x5a ? b | 0x20 : b

/** `n` random 32-bit words: Web Crypto where the runtime has it (Node, browsers, Deno, Bun), else Math.random. */
function randomWords(n: number): Int32Array {
  const words = new Int32Array(n)
  const crypto = (globalThis as { crypto?: { getRandomValues?: (a: Int32Array) => Int32Array } }).crypto
  if (crypto !== undefined && typeof crypto.getRandomValues === 'function') crypto.getRandomValues(words)
  else for (let i = 0; i < n; i++) words[i] = (Math.random() * 0x100000000) | 0
  return words
}

function useKey(words: Int32Array): void {
  K0 = words[0] | 0
  K1 = words[1] | 0
  K2 = words[2] | 0
  K3 = words[3] | 0
  schemesHashed = false
}

{
  const realm = globalThis as unknown as Record<symbol, Int32Array | undefined>
  let words = realm[REALM_KEY]
  if (!(words instanceof Int32Array) || words.length !== 4) {
    words = randomWords(4)
    Object.defineProperty(realm, REALM_KEY, { value: words, writable: false, enumerable: false, configurable: false })
  }
  useKey(words)
}

/** The key of this realm (a copy), for a worker thread that must hash as its parent does ({@link adoptHashKey}). */
export function hashKeyWords(): Int32Array {
  return Int32Array.of(K0, K1, K2, K3)
}

/**
 * Makes `words` (from {@link hashKeyWords} in the parent thread) this
 * realm's key, so that tables built there (and shared) are probed with the same
 * hashes. Call before anything is hashed: tables built earlier are lost.
 */
export function adoptHashKey(words: Int32Array): void {
  if (!(words instanceof Int32Array) || words.length !== 4) throw new TypeError('adoptHashKey takes the four words of hashKeyWords()')
  const realm = globalThis as unknown as Record<symbol, Int32Array | undefined>
  const own = realm[REALM_KEY]
  if (own instanceof Int32Array) own.set(words)
  useKey(words)
}

/**
 * HalfSipHash's final block (`m`: the last bytes and the length in the top
 * byte) and its three finalisation rounds, from the state `v0..v3`.
 */
function finish(v0: number, v1: number, v2: number, v3: number, m: number): number {
  v3 ^= m
  v0 = (v0 + v1) | 0; v1 = (v1 << 5) | (v1 >>> 27); v1 ^= v0; v0 = (v0 << 16) | (v0 >>> 16)
  v2 = (v2 + v3) | 0; v3 = (v3 << 8) | (v3 >>> 24); v3 ^= v2
  v0 = (v0 + v3) | 0; v3 = (v3 << 7) | (v3 >>> 25); v3 ^= v0
  v2 = (v2 + v1) | 0; v1 = (v1 << 13) | (v1 >>> 19); v1 ^= v2; v2 = (v2 << 16) | (v2 >>> 16)
  v0 ^= m
  v2 ^= 0xff
  for (let r = 0; r < 3; r++) {
    v0 = (v0 + v1) | 0; v1 = (v1 << 5) | (v1 >>> 27); v1 ^= v0; v0 = (v0 << 16) | (v0 >>> 16)
    v2 = (v2 + v3) | 0; v3 = (v3 << 8) | (v3 >>> 24); v3 ^= v2
    v0 = (v0 + v3) | 0; v3 = (v3 << 7) | (v3 >>> 25); v3 ^= v0
    v2 = (v2 + v1) | 0; v1 = (v1 << 13) | (v1 >>> 19); v1 ^= v2; v2 = (v2 << 16) | (v2 >>> 16)
  }
  return v1 ^ v3
}

/**
 * HalfSipHash-1-3 under the key `(k0, k1)` of `bytes[start, end)` ASCII-lowercased (little-endian words).
 *
 * COPY: the SipRound is written out in each variant below (bytes or string,
 * 32- or 64-bit tag, and the finishing rounds): a round in a function of its
 * own would return four words through memory on every call. The tests
 * (test/url/keyed-hash.test.ts) check every variant against an independent
 * implementation and the reference vectors.
 */
function halfSip(k0: number, k1: number, bytes: Uint8Array, start: number, end: number): number {
  let v0 = k0
  let v1 = k1
  let v2 = 0x6c796765 ^ k0
  let v3 = 0x74656462 ^ k1
  let i = start
  const whole = start + ((end - start) & ~3)
  for (; i < whole; i += 4) {
    const m = LOWER[bytes[i]] | (LOWER[bytes[i + 1]] << 8) | (LOWER[bytes[i + 2]] << 16) | (LOWER[bytes[i + 3]] << 24)
    v3 ^= m
    v0 = (v0 + v1) | 0; v1 = (v1 << 5) | (v1 >>> 27); v1 ^= v0; v0 = (v0 << 16) | (v0 >>> 16)
    v2 = (v2 + v3) | 0; v3 = (v3 << 8) | (v3 >>> 24); v3 ^= v2
    v0 = (v0 + v3) | 0; v3 = (v3 << 7) | (v3 >>> 25); v3 ^= v0
    v2 = (v2 + v1) | 0; v1 = (v1 << 13) | (v1 >>> 19); v1 ^= v2; v2 = (v2 << 16) | (v2 >>> 16)
    v0 ^= m
  }
  let m = (end - start) << 24
  for (let k = 0; i < end; i++, k += 8) m |= LOWER[bytes[i]] << k
  return finish(v0, v1, v2, v3, m)
}

/**
 * HalfSipHash-1-3 with its 64-bit output, under the key `(k0, k1)`, of
 * `bytes[start, end)` ASCII-lowercased: the first word is returned; with
 * `out`, both words go to `out[at]`, `out[at + 1]` (the second costs three
 * more rounds, not another pass over the bytes).
 */
function halfSip64(k0: number, k1: number, bytes: Uint8Array, start: number, end: number, out: Int32Array | null, at: number): number {
  let v0 = k0
  let v1 = k1 ^ 0xee
  let v2 = 0x6c796765 ^ k0
  let v3 = 0x74656462 ^ k1
  let i = start
  const whole = start + ((end - start) & ~3)
  for (; i < whole; i += 4) {
    // The word's four bytes ASCII-lowercased at once (as LOWER maps them): bit 7 of each byte set where it is
    // 'A'…'Z' (at least 0x41, below 0x5b, and no high bit of its own), moved to bit 5.
    const w = bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24)
    const low = w & 0x7f7f7f7f
    const m = w | ((((low + 0x3f3f3f3f) & ~(low + 0x25252525) & ~w) & 0x80808080) >>> 2)
    v3 ^= m
    v0 = (v0 + v1) | 0; v1 = (v1 << 5) | (v1 >>> 27); v1 ^= v0; v0 = (v0 << 16) | (v0 >>> 16)
    v2 = (v2 + v3) | 0; v3 = (v3 << 8) | (v3 >>> 24); v3 ^= v2
    v0 = (v0 + v3) | 0; v3 = (v3 << 7) | (v3 >>> 25); v3 ^= v0
    v2 = (v2 + v1) | 0; v1 = (v1 << 13) | (v1 >>> 19); v1 ^= v2; v2 = (v2 << 16) | (v2 >>> 16)
    v0 ^= m
  }
  let m = (end - start) << 24
  for (let k = 0; i < end; i++, k += 8) m |= LOWER[bytes[i]] << k
  return finish64(v0, v1, v2, v3, m, out, at)
}

/** {@link halfSip64} of a string's code units (each taken as one byte, as {@link halfSipString}); the first word. */
function halfSip64String(k0: number, k1: number, s: string, start: number, end: number): number {
  let v0 = k0
  let v1 = k1 ^ 0xee
  let v2 = 0x6c796765 ^ k0
  let v3 = 0x74656462 ^ k1
  let i = start
  const whole = start + ((end - start) & ~3)
  for (; i < whole; i += 4) {
    const m =
      LOWER[s.charCodeAt(i) & 0xff] | (LOWER[s.charCodeAt(i + 1) & 0xff] << 8) | (LOWER[s.charCodeAt(i + 2) & 0xff] << 16) | (LOWER[s.charCodeAt(i + 3) & 0xff] << 24)
    v3 ^= m
    v0 = (v0 + v1) | 0; v1 = (v1 << 5) | (v1 >>> 27); v1 ^= v0; v0 = (v0 << 16) | (v0 >>> 16)
    v2 = (v2 + v3) | 0; v3 = (v3 << 8) | (v3 >>> 24); v3 ^= v2
    v0 = (v0 + v3) | 0; v3 = (v3 << 7) | (v3 >>> 25); v3 ^= v0
    v2 = (v2 + v1) | 0; v1 = (v1 << 13) | (v1 >>> 19); v1 ^= v2; v2 = (v2 << 16) | (v2 >>> 16)
    v0 ^= m
  }
  let m = (end - start) << 24
  for (let k = 0; i < end; i++, k += 8) m |= LOWER[s.charCodeAt(i) & 0xff] << k
  return finish64(v0, v1, v2, v3, m, null, 0)
}

/** The 64-bit output's final block and rounds: the first word returned; both into `out` when given. */
function finish64(v0: number, v1: number, v2: number, v3: number, m: number, out: Int32Array | null, at: number): number {
  v3 ^= m
  v0 = (v0 + v1) | 0; v1 = (v1 << 5) | (v1 >>> 27); v1 ^= v0; v0 = (v0 << 16) | (v0 >>> 16)
  v2 = (v2 + v3) | 0; v3 = (v3 << 8) | (v3 >>> 24); v3 ^= v2
  v0 = (v0 + v3) | 0; v3 = (v3 << 7) | (v3 >>> 25); v3 ^= v0
  v2 = (v2 + v1) | 0; v1 = (v1 << 13) | (v1 >>> 19); v1 ^= v2; v2 = (v2 << 16) | (v2 >>> 16)
  v0 ^= m
  v2 ^= 0xee
  for (let r = 0; r < 3; r++) {
    v0 = (v0 + v1) | 0; v1 = (v1 << 5) | (v1 >>> 27); v1 ^= v0; v0 = (v0 << 16) | (v0 >>> 16)
    v2 = (v2 + v3) | 0; v3 = (v3 << 8) | (v3 >>> 24); v3 ^= v2
    v0 = (v0 + v3) | 0; v3 = (v3 << 7) | (v3 >>> 25); v3 ^= v0
    v2 = (v2 + v1) | 0; v1 = (v1 << 13) | (v1 >>> 19); v1 ^= v2; v2 = (v2 << 16) | (v2 >>> 16)
  }
  const first = v1 ^ v3
  if (out === null) return first
  v1 ^= 0xdd
  for (let r = 0; r < 3; r++) {
    v0 = (v0 + v1) | 0; v1 = (v1 << 5) | (v1 >>> 27); v1 ^= v0; v0 = (v0 << 16) | (v0 >>> 16)
    v2 = (v2 + v3) | 0; v3 = (v3 << 8) | (v3 >>> 24); v3 ^= v2
    v0 = (v0 + v3) | 0; v3 = (v3 << 7) | (v3 >>> 25); v3 ^= v0
    v2 = (v2 + v1) | 0; v1 = (v1 << 13) | (v1 >>> 19); v1 ^= v2; v2 = (v2 << 16) | (v2 >>> 16)
  }
  out[at] = first
  out[at + 1] = v1 ^ v3
  return first
}

/** `halfSip` of a string's code units `s[start, end)` ASCII-lowercased (each taken as one byte: for ASCII text, the hash of its bytes). */
function halfSipString(k0: number, k1: number, s: string, start: number, end: number): number {
  let v0 = k0
  let v1 = k1
  let v2 = 0x6c796765 ^ k0
  let v3 = 0x74656462 ^ k1
  let i = start
  const whole = start + ((end - start) & ~3)
  for (; i < whole; i += 4) {
    const m =
      LOWER[s.charCodeAt(i) & 0xff] | (LOWER[s.charCodeAt(i + 1) & 0xff] << 8) | (LOWER[s.charCodeAt(i + 2) & 0xff] << 16) | (LOWER[s.charCodeAt(i + 3) & 0xff] << 24)
    v3 ^= m
    v0 = (v0 + v1) | 0; v1 = (v1 << 5) | (v1 >>> 27); v1 ^= v0; v0 = (v0 << 16) | (v0 >>> 16)
    v2 = (v2 + v3) | 0; v3 = (v3 << 8) | (v3 >>> 24); v3 ^= v2
    v0 = (v0 + v3) | 0; v3 = (v3 << 7) | (v3 >>> 25); v3 ^= v0
    v2 = (v2 + v1) | 0; v1 = (v1 << 13) | (v1 >>> 19); v1 ^= v2; v2 = (v2 << 16) | (v2 >>> 16)
    v0 ^= m
  }
  let m = (end - start) << 24
  for (let k = 0; i < end; i++, k += 8) m |= LOWER[s.charCodeAt(i) & 0xff] << k
  return finish(v0, v1, v2, v3, m)
}

/**
 * The process's hash of the name `bytes[start, end)`, ASCII case ignored:
 * the key of every table over names (int32). The first word of
 * HalfSipHash-1-3's 64-bit output ({@link secondHash} is the second).
 */
export function hostHash(bytes: Uint8Array, start: number, end: number): number {
  return halfSip64(K0, K1, bytes, start, end, null, 0)
}

/** {@link hostHash} and {@link secondHash} in one pass: into `out[at]` and `out[at + 1]` (the URL scan's record). */
export function hostHashes(bytes: Uint8Array, start: number, end: number, out: Int32Array, at: number): void {
  halfSip64(K0, K1, bytes, start, end, out, at)
}

/** {@link hostHash} of an ASCII string's `s[start, end)` (a code unit above 0xff gives another hash than its UTF-8 bytes: callers keep such hosts off this path). */
export function hostHashString(s: string, start = 0, end = s.length): number {
  return halfSip64String(K0, K1, s, start, end)
}

/** The second word of the name's 64-bit hash: with {@link hostHash}, a 64-bit fingerprint (hosts/distinct.ts). */
export function secondHash(bytes: Uint8Array, start: number, end: number): number {
  SCRATCH[0] = 0
  halfSip64(K0, K1, bytes, start, end, SCRATCH, 0)
  return SCRATCH[1]
}

const SCRATCH = new Int32Array(2)

/** The hash of a URL scheme (ASCII, case ignored), an input of {@link originHash}. */
export function schemeHashOf(scheme: string): number {
  return halfSipString(K2 ^ 0x5f5f5f5f, K3, scheme, 0, scheme.length)
}

/** {@link schemeHashOf} `http` and `https`: the URL scan's fast path. */
export function httpSchemeHash(https: boolean): number {
  if (!schemesHashed) hashSchemes()
  return https ? HTTPS : HTTP
}

/** Fills `HTTP` and `HTTPS` under the current key (on first use, not at load, so a bundle that never looks a URL up leaves the string hash out). */
function hashSchemes(): void {
  HTTP = schemeHashOf('http')
  HTTPS = schemeHashOf('https')
  schemesHashed = true
}

/**
 * The hash of an origin key `scheme://host[:port]`: HalfSipHash-1-3 of the
 * three words `hostHash(host)`, `schemeHash`, and `port + 1` (0 for the
 * scheme's default port). From the URL scan's record without going over the
 * host again, and equal to {@link keyHash} of the key's bytes.
 */
export function originHash(host: number, scheme: number, portCode: number): number {
  let v0 = K0
  let v1 = K1
  let v2 = 0x6c796765 ^ K0
  let v3 = 0x74656462 ^ K1
  for (let w = 0; w < 3; w++) {
    const m = w === 0 ? host : w === 1 ? scheme : portCode
    v3 ^= m
    v0 = (v0 + v1) | 0; v1 = (v1 << 5) | (v1 >>> 27); v1 ^= v0; v0 = (v0 << 16) | (v0 >>> 16)
    v2 = (v2 + v3) | 0; v3 = (v3 << 8) | (v3 >>> 24); v3 ^= v2
    v0 = (v0 + v3) | 0; v3 = (v3 << 7) | (v3 >>> 25); v3 ^= v0
    v2 = (v2 + v1) | 0; v1 = (v1 << 13) | (v1 >>> 19); v1 ^= v2; v2 = (v2 << 16) | (v2 >>> 16)
    v0 ^= m
  }
  return finish(v0, v1, v2, v3, 12 << 24)
}

/**
 * The hash of a store key's bytes `bytes[start, end)` (keys are ASCII,
 * canonical: store/origin-keys.ts): {@link originHash} of an origin key
 * (`scheme://host[:port]`), {@link hostHash} of a bare host.
 */
export function keyHash(bytes: Uint8Array, start: number, end: number): number {
  let sep = -1
  for (let i = start; i + 2 < end; i++) {
    if (bytes[i] === 0x3a && bytes[i + 1] === 0x2f && bytes[i + 2] === 0x2f) {
      sep = i
      break
    }
  }
  if (sep < 0) return hostHash(bytes, start, end)
  const hostStart = sep + 3
  // The port follows the host's last ':' (an IPv6 literal's colons are inside its brackets).
  let hostEnd = end
  for (let i = end - 1; i >= hostStart && bytes[i] !== 0x5d; i--) {
    if (bytes[i] === 0x3a) {
      hostEnd = i
      break
    }
  }
  let port = 0
  for (let i = hostEnd + 1; i < end; i++) port = port * 10 + (bytes[i] - 0x30)
  let scheme = ''
  for (let i = start; i < sep; i++) scheme += String.fromCharCode(bytes[i])
  return originHash(hostHash(bytes, hostStart, hostEnd), schemeHashOf(scheme), hostEnd < end ? port + 1 : 0)
}

/** HalfSipHash-1-3 with an explicit key, 32-bit output (tests check it against the reference's vectors). */
export function halfSipHash13(k0: number, k1: number, bytes: Uint8Array, start = 0, end = bytes.length): number {
  return halfSip(k0, k1, bytes, start, end)
}

/** HalfSipHash-1-3 with an explicit key, 64-bit output as two words (tests check it; benchmarks build names colliding under a known key). */
export function halfSipHash13x64(k0: number, k1: number, bytes: Uint8Array, start = 0, end = bytes.length): [number, number] {
  const out = new Int32Array(2)
  halfSip64(k0, k1, bytes, start, end, out, 0)
  return [out[0], out[1]]
}
