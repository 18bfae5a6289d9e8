'use strict'
// robots-parser's Robots.js exports its class: `new Robots(url, contents)`
// gives the same object as `robotsParser(url, contents)` (not an instance of it).
const robotsParser = require('./index.js')

function Robots(url, contents) {
  return robotsParser(url, contents)
}

module.exports = Robots
