// Measures the V8 costs behind src/memory.ts (the memory model of every
// memoryUsage() and byte budget): for each shape, 200,000 live copies are
// made and held, and the difference of heapUsed + arrayBuffers around them,
// after a full GC and a macrotask turn (V8 frees ArrayBuffer backing stores
// off the main thread), is divided by the count.
//
//   node --expose-gc bench/memory-model.mjs
//
// Compare the output with the constants in src/memory.ts.
if (typeof gc !== 'function') {
  console.error('run with: node --expose-gc bench/memory-model.mjs')
  process.exit(2)
}

const N = 200_000

async function settle() {
  gc()
  await new Promise((r) => setTimeout(r, 20))
  gc()
}

function used() {
  const m = process.memoryUsage()
  return m.heapUsed + m.arrayBuffers
}

async function per(make) {
  const hold = new Array(N).fill(null)
  await settle()
  const before = used()
  for (let i = 0; i < N; i++) hold[i] = make(i)
  await settle()
  const bytes = (used() - before) / N
  hold.fill(null)
  return bytes
}

class Two {
  constructor(i) {
    this.a = i
    this.b = i
  }
}
class Six {
  constructor(i) {
    this.a = this.b = this.c = this.d = this.e = this.f = i
  }
}

// Fresh flat strings of a given length (split/join flattens them).
const flat = (chars) => (i) => (chars + String.fromCharCode(97 + (i % 26))).split('').join('')
const shared = new Uint8Array(1 << 16)

const rows = [
  ['object, 2 fields', 'OBJECT_HEADER_BYTES + 2 * FIELD_BYTES = 40', (i) => new Two(i)],
  ['object, 6 fields', 'OBJECT_HEADER_BYTES + 6 * FIELD_BYTES = 72', (i) => new Six(i)],
  ['Int32Array(0)', 'TYPED_ARRAY_BYTES = 184', () => new Int32Array(0)],
  ['Uint8Array(100)', 'TYPED_ARRAY_BYTES + 100 = 284', () => new Uint8Array(100)],
  ['subarray of a shared buffer', 'TYPED_VIEW_BYTES = 96', (i) => shared.subarray(i & 1023, (i & 1023) + 8)],
  ['one-byte string, 20 chars', 'STRING_HEADER_BYTES + 24 = 40', flat('x'.repeat(19))],
  ['one-byte string, 100 chars', 'STRING_HEADER_BYTES + 104 = 120', flat('x'.repeat(99))],
  ['two-byte string, 40 chars', 'STRING_HEADER_BYTES + 80 = 96', flat('\u0101'.repeat(39))],
  ['array of 10 numbers', 'ARRAY_HEADER_BYTES + 10 * FIELD_BYTES = 128', (i) => [i, i, i, i, i, i, i, i, i, i]],
  ['new Map()', 'MAP_BYTES = 184', () => new Map()],
  ['Map, 10 entries', 'MAP_BYTES + 10 * MAP_ENTRY_BYTES = 544', () => {
    const m = new Map()
    for (let k = 0; k < 10; k++) m.set(k, k)
    return m
  }],
  ['Map, 100 entries', 'MAP_BYTES + 100 * MAP_ENTRY_BYTES = 3784', () => {
    const m = new Map()
    for (let k = 0; k < 100; k++) m.set(k, k)
    return m
  }],
]

console.log(`V8 ${process.versions.v8}, Node ${process.version}, ${process.arch}`)
console.log('')
console.log('| shape | measured bytes each | model (src/memory.ts) |')
console.log('| --- | --- | --- |')
for (const [name, model, make] of rows) console.log(`| ${name} | ${(await per(make)).toFixed(0)} | ${model} |`)
