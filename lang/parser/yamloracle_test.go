package parser

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// The reference's YAML library as a live oracle: scripts/yaml-oracle.mjs
// run by node, speaking JSON lines. It is found through LOBSTER_YAML_MODULES
// (a node_modules directory holding npm yaml 2.9.x; "off" for none) or at
// ../ref/node_modules beside the checkout; without node or the library the
// differential tests check invariants only.

type yamlOracle struct {
	mu  sync.Mutex
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

var (
	oracleOnce sync.Once
	oracle     *yamlOracle
	oracleWhy  string
)

// yamlOracleModules is the node_modules directory with npm yaml, or "";
// LOBSTER_YAML_MODULES=off turns the oracle off.
func yamlOracleModules() string {
	dir := os.Getenv("LOBSTER_YAML_MODULES")
	if dir == "off" {
		return ""
	}
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "ref", "node_modules")
	}
	if _, err := os.Stat(filepath.Join(dir, "yaml", "package.json")); err != nil {
		return ""
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	return abs
}

// getYAMLOracle starts the oracle once per process; nil when unavailable.
func getYAMLOracle() (*yamlOracle, string) {
	oracleOnce.Do(func() {
		modules := yamlOracleModules()
		if modules == "" {
			oracleWhy = "npm yaml not found (set LOBSTER_YAML_MODULES)"
			return
		}
		node, err := exec.LookPath("node")
		if err != nil {
			oracleWhy = "node not found"
			return
		}
		cmd := exec.Command(node, filepath.Join("..", "..", "scripts", "yaml-oracle.mjs"), modules)
		cmd.Stderr = os.Stderr
		in, err := cmd.StdinPipe()
		if err != nil {
			oracleWhy = err.Error()
			return
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			oracleWhy = err.Error()
			return
		}
		if err := cmd.Start(); err != nil {
			oracleWhy = err.Error()
			return
		}
		// The process ends when its stdin closes, that is when this test
		// process exits.
		oracle = &yamlOracle{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<16)}
		if _, err := oracle.read("a: 1"); err != nil {
			oracle, oracleWhy = nil, "the oracle does not answer: "+err.Error()
		}
	})
	return oracle, oracleWhy
}

// read asks the oracle how YAML.parse reads src.
func (o *yamlOracle) read(src string) (suiteRef, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	line, err := json.Marshal(src)
	if err != nil {
		return suiteRef{}, err
	}
	if _, err := o.in.Write(append(line, '\n')); err != nil {
		return suiteRef{}, err
	}
	answer, err := o.out.ReadBytes('\n')
	if err != nil {
		return suiteRef{}, err
	}
	var ref suiteRef
	if err := json.Unmarshal(answer, &ref); err != nil {
		return suiteRef{}, fmt.Errorf("%v: %s", err, answer)
	}
	if strings.HasPrefix(ref.Error, "oracle: ") {
		return suiteRef{}, fmt.Errorf("%s", ref.Error)
	}
	return ref, nil
}

// oracleComparable reports whether src can be compared with the oracle: the
// reference reads files as UTF-8 text, so invalid bytes never reach its YAML
// library.
func oracleComparable(src string) bool { return utf8.ValidString(src) }

// mutateYAML changes src a few times at random: bytes that matter to YAML
// inserted, deleted or replaced, lines duplicated, deleted or re-indented.
func mutateYAML(rng *rand.Rand, src string) string {
	const alphabet = " \n\t:-?#&*!|>[]{},\"'%@`.\\a0~"
	b := []byte(src)
	for n := 1 + rng.IntN(3); n > 0; n-- {
		switch op := rng.IntN(7); {
		case op <= 1 || len(b) == 0: // insert
			i := rng.IntN(len(b) + 1)
			c := alphabet[rng.IntN(len(alphabet))]
			b = append(b[:i], append([]byte{c}, b[i:]...)...)
		case op == 2: // delete
			i := rng.IntN(len(b))
			b = append(b[:i], b[i+1:]...)
		case op == 3: // replace
			b[rng.IntN(len(b))] = alphabet[rng.IntN(len(alphabet))]
		default: // a line: duplicate, delete, indent or dedent
			lines := strings.SplitAfter(string(b), "\n")
			i := rng.IntN(len(lines))
			switch op {
			case 4:
				lines = append(lines[:i+1], lines[i:]...)
			case 5:
				lines = append(lines[:i], lines[i+1:]...)
			case 6:
				if rng.IntN(2) == 0 {
					lines[i] = " " + lines[i]
				} else {
					lines[i] = strings.TrimPrefix(lines[i], " ")
				}
			}
			b = []byte(strings.Join(lines, ""))
		}
	}
	return string(b)
}

var (
	yamlDiff = flag.Int("yamldiff", 0, "compare the YAML reader with the reference's YAML library on this many random mutations of the yaml-test-suite's inputs (needs node and npm yaml)")
	yamlGen  = flag.Int("yamlgen", 0, "compare the YAML reader with the reference's YAML library on this many generated block documents (needs node and npm yaml)")
)

// TestYAMLDifferential is a survey for development, run by hand:
//
//	go test ./lang/parser -run TestYAMLDifferential -yamldiff 20000 -v
//
// It reports how many mutated inputs the reader reads as the reference does,
// by kind of difference, with the shortest examples. YAMLDIFF_SEED picks
// another sequence of mutations.
func TestYAMLDifferential(t *testing.T) {
	if *yamlDiff <= 0 {
		t.Skip("run with -yamldiff N")
	}
	cases := loadSuite(t)
	rng := rand.New(rand.NewPCG(surveySeed(), 2))
	surveyYAML(t, *yamlDiff, func() string {
		return mutateYAML(rng, cases[rng.IntN(len(cases))].Src)
	})
}

// TestYAMLGenerated is the same survey on generated block documents: nested
// mappings and sequences with every kind of key and value, comment and
// empty lines at random indentations, now and then a line indented one
// space off. Mutations of the suite's inputs rarely build such structures.
//
//	go test ./lang/parser -run TestYAMLGenerated -yamlgen 20000 -v
func TestYAMLGenerated(t *testing.T) {
	if *yamlGen <= 0 {
		t.Skip("run with -yamlgen N")
	}
	rng := rand.New(rand.NewPCG(surveySeed(), 3))
	surveyYAML(t, *yamlGen, func() string {
		var b strings.Builder
		genBlock(rng, &b, rng.IntN(2), 0)
		return b.String()
	})
}

func surveySeed() uint64 {
	seed := uint64(1)
	if s := os.Getenv("YAMLDIFF_SEED"); s != "" {
		fmt.Sscan(s, &seed)
	}
	return seed
}

// surveyYAML compares n inputs from next with the oracle and logs the
// differences by kind, with the shortest examples.
func surveyYAML(t *testing.T, n int, next func() string) {
	o, why := getYAMLOracle()
	if o == nil {
		t.Skip(why)
	}
	examples := map[string][]string{}
	counts := map[string]int{}
	for i := 0; i < n; i++ {
		src := next()
		if !oracleComparable(src) {
			continue
		}
		ref, err := o.read(src)
		if err != nil {
			t.Fatal(err)
		}
		kind, detail := compareReading(src, ref, "")
		if kind == "" {
			counts["agree"]++
			continue
		}
		counts[kind]++
		examples[kind] = append(examples[kind], fmt.Sprintf("%q\n\t\t%s", src, detail))
	}
	t.Logf("%d inputs: %v", n, counts)
	kinds := make([]string, 0, len(examples))
	for k := range examples {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		ex := examples[k]
		sort.Slice(ex, func(i, j int) bool { return len(ex[i]) < len(ex[j]) })
		t.Logf("%s (%d), shortest:", k, len(ex))
		for _, e := range ex[:min(len(ex), 15)] {
			t.Logf("\t%s", e)
		}
	}
}

// genBlock writes a block mapping (or, now and then, sequence) at column
// indent.
func genBlock(rng *rand.Rand, b *strings.Builder, indent, depth int) {
	pad := strings.Repeat(" ", indent)
	seq := rng.IntN(4) == 0
	for i, n := 0, 1+rng.IntN(3); i < n; i++ {
		if i > 0 || rng.IntN(4) == 0 {
			for k := rng.IntN(3); k > 0; k-- { // empty, blank and comment lines
				switch rng.IntN(3) {
				case 0:
					b.WriteString("\n")
				case 1:
					b.WriteString(strings.Repeat(" ", rng.IntN(indent+4)) + "# c\n")
				default:
					b.WriteString(strings.Repeat(" ", rng.IntN(indent+4)) + "\n")
				}
			}
		}
		linePad := pad
		if rng.IntN(40) == 0 { // one space off
			linePad = strings.Repeat(" ", max(0, indent+1-2*rng.IntN(2)))
		}
		b.WriteString(linePad)
		if seq {
			b.WriteString("- ")
		} else {
			if rng.IntN(6) == 0 {
				b.WriteString([]string{"&k" + fmt.Sprint(i) + " ", "!t ", "!!str "}[rng.IntN(3)])
			}
			switch rng.IntN(7) {
			case 0:
				b.WriteString(fmt.Sprintf("[k%d]: ", i))
			case 1:
				b.WriteString(fmt.Sprintf("{k%d: 1}: ", i))
			case 2:
				b.WriteString(fmt.Sprintf("? k%d\n%s: ", i, pad))
			case 3:
				b.WriteString(fmt.Sprintf("\"k%d\": ", i))
			case 4:
				b.WriteString(": ")
			default:
				b.WriteString(fmt.Sprintf("k%d: ", i))
			}
		}
		if depth < 3 && rng.IntN(4) == 0 {
			b.WriteString("\n")
			genBlock(rng, b, indent+1+rng.IntN(3)-boolInt(!seq && rng.IntN(3) == 0), depth+1)
			continue
		}
		b.WriteString(genScalar(rng, pad))
		b.WriteString("\n")
	}
}

// genScalar is a value that fits on the entry's line (and the lines after
// it, indented from pad).
func genScalar(rng *rand.Rand, pad string) string {
	values := []string{
		"v", "v # c", "*k0", "&e", "!!int 1", "",
		"v\n" + pad + "  more", "v\n\n" + pad + "  more",
		"\"q\"", "\"a\n" + pad + " b\"", "'a\n" + pad + "  b'",
		"[v,\n" + pad + " w]", "{a: 1,\n" + pad + "  b: 2}", "[v]", "{ }",
		"|\n" + pad + "  text\n", "|+\n" + pad + "  text\n\n", ">-\n" + pad + "   a\n" + pad + "  b",
		"|2\n" + pad + "   x",
	}
	return values[rng.IntN(len(values))]
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
