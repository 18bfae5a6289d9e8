// temoto/robotstxt (Go) as a `robots-automaton compare --batch` adapter.
//
// temoto/robotstxt has no Debian package: build this adapter where the Go
// module proxy (or a module cache holding github.com/temoto/robotstxt) is at
// hand, then run the binary:
//
//	cd examples/adapters/temoto-robotstxt && go mod tidy && go build -o temoto-batch .
//	robots-automaton compare --cases corpus --batch 'examples/adapters/temoto-robotstxt/temoto-batch'
//
// The batch protocol (see ../robots-parser-batch.mjs): one JSON request per
// line on stdin, one JSON answer per line on stdout. temoto/robotstxt reports
// no deciding line (compare then checks verdicts only). A body it cannot parse
// (FromBytes returns an error) is an error answer. It judges a path: the URL's
// path and query (url.URL.RequestURI; a path alone is taken as it is).
package main

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"os"

	"github.com/temoto/robotstxt"
)

type request struct {
	ID           json.RawMessage `json:"id"`
	RobotsPath   *string         `json:"robots_path"`
	Robots       *string         `json:"robots"`
	RobotsBase64 *string         `json:"robots_base64"`
	Agent        json.RawMessage `json:"agent"`
	URL          string          `json:"url"`
}

type answer struct {
	ID      json.RawMessage `json:"id"`
	Allowed *bool           `json:"allowed,omitempty"`
	Error   string          `json:"error,omitempty"`
}

// kept is how many parsed bodies are kept by robots_path (all dropped when it is reached).
const kept = 1000

type parsed struct {
	data *robotstxt.RobotsData
	err  error
}

var cache = map[string]parsed{}

func body(r *request) ([]byte, error) {
	switch {
	case r.Robots != nil:
		return []byte(*r.Robots), nil
	case r.RobotsBase64 != nil:
		return base64.StdEncoding.DecodeString(*r.RobotsBase64)
	case r.RobotsPath != nil:
		return os.ReadFile(*r.RobotsPath)
	}
	return nil, fmt.Errorf("no body in the request")
}

func judge(r *request) answer {
	a := answer{ID: r.ID}
	var agent string
	if err := json.Unmarshal(r.Agent, &agent); err != nil {
		a.Error = "temoto/robotstxt takes one user agent"
		return a
	}
	var p parsed
	var ok bool
	if r.RobotsPath != nil {
		p, ok = cache[*r.RobotsPath]
	}
	if !ok {
		b, err := body(r)
		if err != nil {
			a.Error = err.Error()
			return a
		}
		p.data, p.err = robotstxt.FromBytes(b)
		if r.RobotsPath != nil {
			if len(cache) >= kept {
				cache = map[string]parsed{}
			}
			cache[*r.RobotsPath] = p
		}
	}
	if p.err != nil {
		a.Error = "FromBytes: " + p.err.Error()
		return a
	}
	u, err := url.Parse(r.URL)
	if err != nil {
		a.Error = err.Error()
		return a
	}
	allowed := p.data.TestAgent(u.RequestURI(), agent)
	a.Allowed = &allowed
	return a
}

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	out := bufio.NewWriterSize(os.Stdout, 1<<16)
	enc := json.NewEncoder(out)
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 {
			var r request
			var a answer
			if e := json.Unmarshal(line, &r); e != nil {
				a = answer{ID: json.RawMessage("null"), Error: e.Error()}
			} else {
				a = judge(&r)
			}
			_ = enc.Encode(a)
			// Answer as soon as the input read so far is done: the harness waits for answers.
			if in.Buffered() == 0 {
				_ = out.Flush()
			}
		}
		if err != nil {
			break
		}
	}
	_ = out.Flush()
}
