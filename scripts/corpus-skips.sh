#!/bin/sh
# Prints one line when the corpus beside the repository (../shared/corpus)
# is missing, naming the tests that skip without it and the functions that
# run without its files (make test runs this first). Those tests find the
# corpus through internal/corpustest; this finds them by their calls.
cd "$(dirname "$0")/.." || exit 1
[ -d ../shared/corpus ] && exit 0
find . -name '*_test.go' -not -path './.git/*' | sort | xargs awk '
	FNR == 1 { pkg = FILENAME; sub(/^\.\//, "", pkg); sub(/\/?[^\/]*$/, "", pkg); if (pkg != "") pkg = pkg "." }
	/^func / { name = $2; sub(/\(.*/, "", name) }
	/corpustest\.Files\(/ { skip = skip " " pkg name }
	/corpustest\.Optional\(/ { part = part " " pkg name }
	END { printf "*** NO CORPUS at ../shared/corpus: not run:%s; run without the corpus files:%s\n", skip, part }'
