package pipeline

import (
	"context"
	"errors"
	"regexp"
	"strings"

	"github.com/lobsterdev/lobster/lang/js"
	"github.com/lobsterdev/lobster/lang/jsvalue"
)

// mapCommand is map: wrap, unwrap, or assign fields, lazily.
func mapCommand(ctx context.Context, c *Call) (Output, error) {
	wrap, hasWrap := c.Args.String("wrap")
	unwrap, hasUnwrap := c.Args.String("unwrap")
	if hasWrap && hasUnwrap {
		return Output{}, errors.New("map cannot use both --wrap and --unwrap")
	}
	type assignment struct{ key, value string }
	var assigns []assignment
	for _, p := range c.Args.Positional {
		k, v, ok := strings.Cut(p, "=")
		if k = js.Trim(k); ok && k != "" {
			assigns = append(assigns, assignment{k, v})
		}
	}
	return mapLazy(c.Input, func(item any) (any, error) {
		if hasUnwrap {
			if isObject(item) {
				return property(item, unwrap, false), nil
			}
			return undefined, nil
		}
		cur := item
		if hasWrap {
			cur = jsvalue.Obj(wrap, item)
		}
		if len(assigns) == 0 {
			return cur, nil
		}
		obj, ok := cur.(*jsvalue.Object)
		if !ok {
			obj = jsvalue.Obj("value", cur)
		}
		for _, a := range assigns {
			obj.Set(a.key, renderMini(a.value, item))
		}
		return obj, nil
	}), nil
}

// placeholder is a {{ path }} of map and template.
var placeholder = regexp.MustCompile(`\{\{\s*([^}]+?)\s*\}\}`)

// renderMini renders map's mini-template: {{path}} without filters.
func renderMini(text string, item any) string {
	return placeholder.ReplaceAllStringFunc(text, func(m string) string {
		path := placeholder.FindStringSubmatch(m)[1]
		return cellText(resolvePath(item, path))
	})
}

// resolvePath is the value of a template path: "." or "this" or "" for
// the item itself, else a dot-path lookup.
func resolvePath(item any, path string) any {
	path = js.Trim(path)
	if path == "" || path == "." || path == "this" {
		return item
	}
	return lookupPath(item, path)
}
