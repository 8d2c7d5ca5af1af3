package source

import (
	"unicode/utf8"

	"golang.org/x/text/encoding/unicode"
)

// DecodeUTF8 returns src as the reference reads text (files, a step's
// output): decoded as UTF-8 with every maximal ill-formed subsequence
// replaced by one U+FFFD, as the WHATWG decoder and Node's Buffer do ("\xE2\x82A"
// becomes "\uFFFDA", "\xC0\x80" two U+FFFD), and a byte order mark kept.
// Valid UTF-8 is returned as it is, without a copy.
func DecodeUTF8(src []byte) []byte {
	if utf8.Valid(src) {
		return src
	}
	out, err := unicode.UTF8.NewDecoder().Bytes(src)
	if err != nil { // not reached: the decoder replaces, it does not fail
		return []byte(DecodeUTF8String(string(src)))
	}
	return out
}

// DecodeUTF8String is [DecodeUTF8] for a string.
func DecodeUTF8String(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	out, err := unicode.UTF8.NewDecoder().String(s)
	if err != nil { // not reached, as above
		return string([]rune(s))
	}
	return out
}
