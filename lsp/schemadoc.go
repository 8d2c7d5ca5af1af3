package lsp

import (
	"encoding/json"
	"sort"
	"sync"

	"github.com/lobsterdev/lobster/lang/schema"
)

// keyDoc is what the JSON Schema says about one key.
type keyDoc struct {
	Description string
	Enum        []string
	Default     any
}

// schemaDocs is the JSON Schema of workflow files read for its
// documentation: for each definition (Workflow, Step, Branch, SubStep, Arg,
// Approval, Input, Retry, Parallel, CostLimit) its keys and their
// descriptions, the text editors using yaml-language-server show.
type schemaDocs struct {
	keys  map[string]map[string]keyDoc
	types map[string]string // definition → its description
}

// loadSchemaDocs generates the schema (lang/schema) once and indexes it.
var loadSchemaDocs = sync.OnceValue(func() *schemaDocs {
	d := &schemaDocs{keys: map[string]map[string]keyDoc{}, types: map[string]string{}}
	raw, err := schema.Generate()
	if err != nil {
		return d
	}
	type node struct {
		Description string           `json:"description"`
		Properties  map[string]*node `json:"properties"`
		AnyOf       []*node          `json:"anyOf"`
		Defs        map[string]*node `json:"$defs"`
		Enum        []any            `json:"enum"`
		Default     any              `json:"default"`
	}
	var root node
	if err := json.Unmarshal(raw, &root); err != nil {
		return d
	}
	add := func(def string, n *node) {
		d.types[def] = n.Description
		props := n.Properties
		for _, alt := range n.AnyOf {
			if len(alt.Properties) > 0 && len(props) == 0 {
				props = alt.Properties
			}
		}
		m := map[string]keyDoc{}
		for k, p := range props {
			kd := keyDoc{Description: p.Description, Default: p.Default}
			for _, e := range p.Enum {
				if s, ok := e.(string); ok {
					kd.Enum = append(kd.Enum, s)
				}
			}
			m[k] = kd
		}
		d.keys[def] = m
	}
	add("Workflow", &root)
	for name, n := range root.Defs {
		add(name, n)
	}
	return d
})

// key is the documentation of a key in a definition.
func (d *schemaDocs) key(def, key string) (keyDoc, bool) {
	k, ok := d.keys[def][key]
	return k, ok
}

// keyNames lists a definition's keys, sorted.
func (d *schemaDocs) keyNames(def string) []string {
	var names []string
	for k := range d.keys[def] {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}
