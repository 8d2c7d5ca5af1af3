package state

import (
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrBadKey is returned for a key with no usable characters.
var ErrBadKey = errors.New("state key is empty/invalid")

// FileName is the file that holds key: the key lower-cased as JavaScript
// does, every run of characters outside [a-z0-9._-] replaced by one "_", at
// most one leading and one trailing "_" removed, then ".json". No path
// separator survives, so a key cannot name a file outside the directory.
// The scan is linear, whatever the key.
func FileName(key string) (string, error) {
	var b strings.Builder
	b.Grow(len(key) + len(".json"))
	underscore := false // the last byte written is "_"
	put := func(c byte) {
		if c == '_' {
			if underscore {
				return
			}
			underscore = true
		} else {
			underscore = false
		}
		b.WriteByte(c)
	}
	for i := 0; i < len(key); {
		r, size := utf8.DecodeRuneInString(key[i:])
		i += size
		switch {
		case r == 'İ':
			// JavaScript lower-cases it to "i" and a combining dot,
			// Go to a plain "i": keep the reference's file name.
			put('i')
			put('_')
		default:
			if r >= utf8.RuneSelf {
				r = unicode.ToLower(r)
			} else if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			if allowed(r) {
				put(byte(r))
			} else {
				put('_')
			}
		}
	}
	safe := b.String()
	safe = strings.TrimPrefix(safe, "_")
	safe = strings.TrimSuffix(safe, "_")
	if safe == "" {
		return "", ErrBadKey
	}
	return safe + ".json", nil
}

func allowed(r rune) bool {
	return 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '.' || r == '_' || r == '-'
}
