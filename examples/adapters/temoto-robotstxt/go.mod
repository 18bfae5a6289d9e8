module robots-automaton/examples/temoto-robotstxt

go 1.19

require github.com/temoto/robotstxt v1.1.2
