module github.com/lobsterdev/lobster

go 1.26.0

require (
	github.com/goccy/go-yaml v1.19.2 // indirect
	github.com/rogpeppe/go-internal v1.16.0 // indirect
	mvdan.cc/sh/v3 v3.14.1 // indirect
)
