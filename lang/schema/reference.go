package schema

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/template"
)

//go:embed workflow-format.md.tmpl
var referenceTemplate string

// Reference returns docs/workflow-format.md, the reference of the workflow
// format: the prose and examples of workflow-format.md.tmpl, with the
// descriptions and the tables of keys written from the JSON Schema that
// Generate makes from the types of types.go. In the template,
// [[about "Step"]] is a type's description and [[keys "Step"]] the table
// of its keys (type, default, description).
func Reference() ([]byte, error) {
	data, err := Generate()
	if err != nil {
		return nil, err
	}
	var root jsonObject
	if err := json.Unmarshal(data, &root); err != nil {
		return nil, err
	}
	defs, _ := root["$defs"].(map[string]any)
	def := func(name string) (jsonObject, error) {
		if name == "Workflow" {
			return root, nil
		}
		d, ok := defs[name].(map[string]any)
		if !ok {
			return nil, fmt.Errorf("schema: no type %q", name)
		}
		return d, nil
	}
	used := map[string]bool{}
	funcs := template.FuncMap{
		"about": func(name string) (string, error) {
			d, err := def(name)
			if err != nil {
				return "", err
			}
			return codeSpans(str(d["description"])), nil
		},
		"keys": func(name string) (string, error) {
			d, err := def(name)
			if err != nil {
				return "", err
			}
			used[name] = true
			return keyTable(name, d)
		},
	}
	t, err := template.New("workflow-format.md").Delims("[[", "]]").Funcs(funcs).Option("missingkey=error").Parse(referenceTemplate)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, nil); err != nil {
		return nil, err
	}
	// Every type of the schema has its table: a type added to types.go
	// needs a section.
	for _, name := range append(sortedNames(defs), "Workflow") {
		if !used[name] {
			return nil, fmt.Errorf("schema: workflow-format.md.tmpl has no table of %s ([[keys %q]])", name, name)
		}
	}
	return buf.Bytes(), nil
}

type jsonObject = map[string]any

func str(v any) string {
	s, _ := v.(string)
	return s
}

func sortedNames(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// anchors are the sections of the reference that describe each type.
var anchors = map[string]string{
	"Arg":       "args",
	"CostLimit": "cost_limit",
	"Step":      "steps",
	"Approval":  "approval",
	"Input":     "input",
	"Retry":     "retry",
	"Parallel":  "parallel",
	"Branch":    "branches",
	"SubStep":   "sub-steps",
}

// properties are the keys of a type's schema, in the order of the Go
// fields of the type name, and the names of those required. Approval's keys
// are those of its mapping form.
func properties(name string, d jsonObject) (keys []string, props jsonObject, required map[string]bool, err error) {
	props, _ = d["properties"].(map[string]any)
	if props == nil {
		for _, a := range asList(d["anyOf"]) {
			alt, _ := a.(map[string]any)
			if p, ok := alt["properties"].(map[string]any); ok {
				props, d = p, alt
			}
		}
	}
	required = map[string]bool{}
	for _, r := range asList(d["required"]) {
		required[str(r)] = true
	}
	order, err := fieldKeys(name)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, k := range order {
		if _, ok := props[k]; ok {
			keys = append(keys, k)
		}
	}
	// Keys the schema adds to the fields (a sub-step's forbidden keys).
	var more []string
	for k := range props {
		if !slices.Contains(keys, k) {
			more = append(more, k)
		}
	}
	sort.Slice(more, func(i, j int) bool { return fieldRank(more[i]) < fieldRank(more[j]) })
	return append(keys, more...), props, required, nil
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// fieldKeys are the JSON keys of the fields of a type of types.go, in order.
func fieldKeys(name string) ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "types.go", typesSource, 0)
	if err != nil {
		return nil, err
	}
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			ts := spec.(*ast.TypeSpec)
			st, ok := ts.Type.(*ast.StructType)
			if !ok || ts.Name.Name != name {
				continue
			}
			var keys []string
			for _, field := range st.Fields.List {
				if field.Tag == nil {
					continue
				}
				tag, _ := strconv.Unquote(field.Tag.Value)
				key, _, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ",")
				keys = append(keys, key)
			}
			return keys, nil
		}
	}
	return nil, fmt.Errorf("schema: no type %s in types.go", name)
}

// fieldRank orders keys that are no field of their type by where a Step
// has them.
func fieldRank(key string) int {
	keys, _ := fieldKeys("Step")
	if i := slices.Index(keys, key); i >= 0 {
		return i
	}
	return len(keys)
}

// keyTable is the Markdown table of a type's keys.
func keyTable(name string, d jsonObject) (string, error) {
	keys, props, required, err := properties(name, d)
	if err != nil {
		return "", err
	}
	if len(keys) == 0 {
		return "", fmt.Errorf("schema: a type without keys: %v", d["description"])
	}
	var b strings.Builder
	b.WriteString("| key | type | default | what it does |\n|---|---|---|---|\n")
	for _, k := range keys {
		p, _ := props[k].(map[string]any)
		typ := typeText(p)
		if required[k] {
			typ += ", **required**"
		}
		def := "—"
		if v, ok := p["default"]; ok {
			raw, _ := json.Marshal(v)
			def = "`" + strings.Trim(string(raw), `"`) + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", k, typ, def, cell(codeSpans(str(p["description"]))))
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// cell escapes the pipes of a table cell.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// typeText says a key's type in words, from its schema.
func typeText(p jsonObject) string {
	if _, ok := p["not"]; ok {
		return "not allowed"
	}
	if ref := str(p["$ref"]); ref != "" {
		name := strings.TrimPrefix(ref, "#/$defs/")
		if name == "Approval" {
			return "`true`, `false`, text or a mapping: [approval](#approval)"
		}
		return fmt.Sprintf("mapping: [%s](#%s)", strings.ToLower(anchors[name]), anchors[name])
	}
	if alts := asList(p["oneOf"]); alts != nil {
		var types []string
		for _, a := range alts {
			types = append(types, typeText(a.(map[string]any)))
		}
		return orList(types)
	}
	switch str(p["type"]) {
	case "string":
		if enum := asList(p["enum"]); enum != nil {
			var vals []string
			for _, v := range enum {
				vals = append(vals, "`"+str(v)+"`")
			}
			return orList(vals)
		}
		if n, ok := p["minLength"].(float64); ok && n == 1 {
			return "text, not empty"
		}
		if str(p["pattern"]) == `\S` {
			return "text, not blank"
		}
		return "text"
	case "integer", "number":
		kind := "integer"
		if str(p["type"]) == "number" {
			kind = "number"
		}
		lo, hasLo := p["minimum"].(float64)
		hi, hasHi := p["maximum"].(float64)
		switch {
		case hasLo && hasHi:
			return fmt.Sprintf("%s, %s to %s", kind, num(lo), num(hi))
		case hasLo:
			return fmt.Sprintf("%s, %s or more", kind, num(lo))
		}
		return kind
	case "boolean":
		return "boolean"
	case "null":
		return "null"
	case "array":
		items, _ := p["items"].(map[string]any)
		name := strings.TrimPrefix(str(items["$ref"]), "#/$defs/")
		s := "list"
		if name != "" {
			s = fmt.Sprintf("list of [%s](#%s)", plural(name), anchors[name])
		}
		if n, ok := p["minItems"].(float64); ok && n > 0 {
			s += fmt.Sprintf(", at least %s", num(n))
		}
		return s
	case "object":
		if ap, ok := p["additionalProperties"].(map[string]any); ok {
			if ref := str(ap["$ref"]); ref != "" {
				name := strings.TrimPrefix(ref, "#/$defs/")
				return fmt.Sprintf("mapping of names to [%s](#%s)", plural(name), anchors[name])
			}
			return "mapping of names to " + typeText(ap)
		}
		return "mapping"
	}
	return "any value"
}

// plural names a list of values of a type.
func plural(name string) string {
	switch name {
	case "SubStep":
		return "sub-steps"
	case "Branch":
		return "branches"
	}
	return strings.ToLower(name) + "s"
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// orList joins words with commas and a final "or".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// quotedRE finds the quoted texts of a description that hold references
// or placeholders: "$check.json.ok == true", "Approve <id>?".
var quotedRE = regexp.MustCompile(`"([^"]*[$<{][^"]*)"`)

// codeRE finds the references and variables of a description: ${name},
// $id.path, LOBSTER_ARG_<NAME>.
var codeRE = regexp.MustCompile(`\$\{[A-Za-z0-9_-]+\}|\$[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z0-9_]+)*|\bLOBSTER_[A-Z_]+(<NAME>)?`)

// codeSpans puts the references, variables and quoted expressions of a
// description (written as plain text, for the editor's hover) in code
// spans.
func codeSpans(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range quotedRE.FindAllStringSubmatchIndex(s, -1) {
		b.WriteString(codeRE.ReplaceAllString(s[last:m[0]], "`$0`"))
		b.WriteString("`" + s[m[2]:m[3]] + "`")
		last = m[1]
	}
	b.WriteString(codeRE.ReplaceAllString(s[last:], "`$0`"))
	return b.String()
}
