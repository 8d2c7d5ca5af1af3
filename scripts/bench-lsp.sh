#!/bin/sh
# Side-by-side latency of lobster-lsp and yaml-language-server (given the
# project's JSON Schema) on the shared workloads, with
# ../shared/bench/lsp_bench.py: RUNS interleaved runs of 30 rounds each on
# wf-1000 and wf-5000, one summary line per server, file and run.
#
# usage: scripts/bench-lsp.sh [YAML_LANGUAGE_SERVER [RUNS]]
#   YAML_LANGUAGE_SERVER: the yaml-language-server program (npm install
#   yaml-language-server@2.0.0); without it only lobster-lsp is measured.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
yls=${1:-}
runs=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bench="$root/../shared/bench"
python3 "$bench/gen.py" 1000 "$work" >/dev/null
python3 "$bench/gen.py" 5000 "$work" >/dev/null
# Built as the README installs it: static.
(cd "$root" && CGO_ENABLED=0 go build -o "$work/lobster-lsp" ./cmd/lobster-lsp)
cat >"$work/yls-settings.json" <<EOF
{"yaml": {"schemas": {"file://$root/schema/lobster.schema.json": ["*.lobster", "**/*.lobster"]}, "validate": true, "hover": true, "completion": true}}
EOF
i=1
while [ "$i" -le "$runs" ]; do
	for f in wf-1000 wf-5000; do
		printf 'run %s %s lobster-lsp: ' "$i" "$f"
		# shellcheck off: the comparison is of the two servers' own work.
		python3 "$bench/lsp_bench.py" --server "$work/lobster-lsp --shellcheck off" --file "$work/$f.lobster" --rounds 30 2>&1 | tail -1
		if [ -n "$yls" ]; then
			printf 'run %s %s yaml-language-server: ' "$i" "$f"
			python3 "$bench/lsp_bench.py" --server "$yls --stdio" --file "$work/$f.lobster" --language-id yaml \
				--rounds 30 --settings-json "$work/yls-settings.json" 2>&1 | tail -1
		fi
	done
	i=$((i + 1))
done
