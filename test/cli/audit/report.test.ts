/**
 * `audit`'s summary tables (src/cli/audit/report.ts): their size stays
 * linear in the crawlers' names, whatever one name's length.
 */
import { describe, expect, it } from 'vitest'
import { AuditTally, ChangeTally, columns, MAX_COLUMN_WIDTH } from '../../../src/cli/audit/report.js'

describe('audit summary tables', () => {
  it('regression: one crawler name of 1 MB among 999: no row is padded to its length (the table was 1 GB, "Invalid string length", exit 1)', () => {
    const names = [...Array.from({ length: 999 }, (_, i) => `Bot${i}`), 'L'.repeat(1 << 20)]
    const nameBytes = names.reduce((n, s) => n + s.length, 0)
    const audit = new AuditTally(names)
    audit.add({ key: 'a.test', outcome: 'ok' } as never, names.map(() => ({ access: 'some', group: 'global', allowedPath: '/', disallowedPath: '/x' })) as never)
    const changes = new ChangeTally(names)
    changes.add(999, 'some', 'nothing')
    for (const table of [audit.table(), changes.table()]) {
      const rows = table.split('\n')
      expect(rows).toHaveLength(1003)
      // Every name whole, and at most a short row's worth of padding and counts beside it.
      expect(table.length).toBeLessThan(nameBytes + rows.length * (MAX_COLUMN_WIDTH + 100))
      expect(rows[1000]).toMatch(/^L{1048576}  \S/)
      // The short names' column is padded to the cap, the next cell two spaces on.
      expect(/^Bot0 +/.exec(rows[1])![0]).toHaveLength(MAX_COLUMN_WIDTH + 2)
    }
  })

  it('columns of short cells are as wide as their widest cell', () => {
    expect(columns([['crawler', 'a'], ['GPTBot', 'bb'], ['X', 'c']])).toBe('crawler  a\nGPTBot   bb\nX        c\n')
  })
})
