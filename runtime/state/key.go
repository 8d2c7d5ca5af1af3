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

// The alias spelling of a workflow state key that the reference accepts.
const workflowAliasPrefix = "workflow-resume_"

// ResumeKind is the kind of resume state that key names: KindWorkflow for
// workflow_resume_<uuid> (or the reference's alias workflow-resume_<uuid>),
// KindPipeline for pipeline_resume_<uuid>, the UUID in its canonical
// lower-case form, as both implementations write them. Anything else is
// "": an approval index, a lock, a temporary file, any other file of the
// directory, or a key too long or malformed. It is decided from the text
// alone, before the file system is touched.
func ResumeKind(key string) string {
	var kind, id string
	switch {
	case strings.HasPrefix(key, WorkflowPrefix):
		kind, id = KindWorkflow, key[len(WorkflowPrefix):]
	case strings.HasPrefix(key, workflowAliasPrefix):
		kind, id = KindWorkflow, key[len(workflowAliasPrefix):]
	case strings.HasPrefix(key, PipelinePrefix):
		kind, id = KindPipeline, key[len(PipelinePrefix):]
	default:
		return ""
	}
	if !isUUID(id) {
		return ""
	}
	return kind
}

// isUUID says whether s is a UUID as crypto.randomUUID writes it:
// 8-4-4-4-12 lower-case hex digits.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
				return false
			}
		}
	}
	return true
}
