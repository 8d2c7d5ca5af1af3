module github.com/lobsterdev/lobster

go 1.25
