/**
 * The store's entry records: `entries[id * Entry.Width + field]` in one
 * `Int32Array` (store/robots-store.ts), fields named by {@link Entry}.
 */

/** Fields of an entry record (see the module comment). */
export const Entry = {
  /** Arena chunk of the key and form; -1 for a free id. */
  Chunk: 0,
  /** Offset of the key in the chunk; the form follows it. */
  Offset: 1,
  KeyLength: 2,
  /** Bytes of the form in the arena (0 for outcomes and shared forms). */
  FormLength: 3,
  /** An EntryKind, plus the UNCHECKED bit. */
  Kind: 4,
  /** hashKey of the key, as an int32. */
  Hash: 5,
  /** Bumped whenever the id's entry is set or deleted: tells stale compiled matchers apart. */
  Gen: 6,
  /** Bytes of the fetch-info record (store/fetch-info.ts) after the form in the arena; 0 when none. */
  InfoLength: 7,
  Width: 8,
} as const

/** What an entry holds (the low bits of Entry.Kind). */
export const EntryKind = {
  /** A robots.txt, its form in the arena after the key. */
  Robots: 0,
  /** A robots.txt whose form is shared with a Robots object (`setRobots`). */
  Shared: 1,
  Unavailable: 2,
  Unreachable: 3,
  /** The bits of the kind. */
  Mask: 3,
} as const

/** Entry.Kind bit: a form loaded from a bundle and not checked yet (lazy loading). */
export const UNCHECKED = 4
