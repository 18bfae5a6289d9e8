#!/usr/bin/env ruby
# Ruby's webrobots (the gem Mechanize uses) as a `robots-automaton compare --batch` adapter.
#
#   robots-automaton compare --cases corpus --batch 'ruby examples/adapters/webrobots_batch.rb'
#
# Debian: apt-get install ruby-webrobots. The batch protocol: one JSON request
# per line on stdin,
#   {"id": 7, "robots_path": "/tmp/…/x.txt" | "robots": "…" | "robots_base64": "…",
#    "agent": "Googlebot", "url": "https://a.com/x"}
# one JSON answer per line on stdout: {"id": 7, "allowed": false} or {"id": 7, "error": "why"}.
# webrobots reports no deciding line (compare then checks verdicts only). It
# fetches a site's robots.txt itself: here its http_get hook hands it the
# case's body instead. It takes absolute http(s) URLs only: a path alone is
# taken on http://example.com; another URL it refuses is an error answer.
# Every answer is flushed at once: the harness keeps a window of requests in
# flight and waits for answers.
require 'base64'
require 'json'
require 'uri'
require 'webrobots'

KEPT = 1000
$robots = {} # body key and agent => a WebRobots whose http_get answers with that body
$bodies = {}

def body_of(req)
  return req['robots'].b if req['robots'].is_a?(String)
  return Base64.decode64(req['robots_base64']) if req['robots_base64'].is_a?(String)
  path = req['robots_path']
  $bodies.clear if $bodies.size > KEPT
  $bodies[path] ||= File.binread(path)
end

def answer(req)
  agent = req['agent']
  return { id: req['id'], error: 'webrobots takes one user agent' } unless agent.is_a?(String)
  url = req['url']
  url = URI.join('http://example.com/', url).to_s unless url =~ %r{\A[A-Za-z][A-Za-z0-9+.-]*://}
  key = [req['robots_path'] || req['robots'] || req['robots_base64'], agent]
  robots = $robots[key]
  unless robots
    $robots.clear if $robots.size > KEPT
    body = body_of(req)
    robots = $robots[key] = WebRobots.new(agent, http_get: ->(_uri) { body }, crawl_delay: :ignore)
  end
  { id: req['id'], allowed: robots.allowed?(url) ? true : false }
end

$stdout.sync = true
$stdin.each_line do |line|
  req = nil
  begin
    req = JSON.parse(line)
    a = answer(req)
  rescue StandardError, ScriptError => e # an answer for every request, whatever happens
    a = { id: req.is_a?(Hash) ? req['id'] : nil, error: "#{e.class}: #{e.message}" }
  end
  $stdout.write(JSON.generate(a) + "\n")
end
