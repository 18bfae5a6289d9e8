// robots-parser (npm) as a `robots-automaton compare --module` adapter: judged
// in process, so the timings are robots-parser's own.
//
//   robots-automaton compare --cases corpus --module examples/adapters/robots-parser-module.mjs
//
// The module exports parse(bytes) -> { isAllowed(url, agent), matchingLine(url, agent) }.
// robots-parser needs the robots.txt URL and answers only for URLs of its
// origin, so a parser is made per origin of the URLs asked about (relative
// URLs resolve against the base robots-parser itself uses). Its line numbers
// are 1-based with -1 for "no rule"; compare wants 0 for that.
import robotsParser from 'robots-parser'

/** robots-parser's own base for relative URLs. */
const BASE = 'http://robots-relative.samclarke.com/'

export function parse(bytes) {
  const text = new TextDecoder().decode(bytes) // what fs.readFileSync(path, 'utf8') gives
  const byOrigin = new Map()
  const parserFor = (url) => {
    const u = new URL(url, BASE) // throws for a URL robots-parser cannot read either: an error answer
    const origin = `${u.protocol}//${u.host}`
    let robots = byOrigin.get(origin)
    if (!robots) byOrigin.set(origin, (robots = robotsParser(`${origin}/robots.txt`, text)))
    return robots
  }
  return {
    isAllowed(url, agent) {
      const allowed = parserFor(url).isAllowed(url, agent)
      if (allowed === undefined) throw new Error('robots-parser: the URL is not valid for this robots.txt')
      return allowed
    },
    matchingLine(url, agent) {
      const line = parserFor(url).getMatchingLineNumber(url, agent)
      return line > 0 ? line : 0
    },
  }
}
