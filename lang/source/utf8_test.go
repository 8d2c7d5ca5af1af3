package source_test

import (
	"encoding/hex"
	"testing"

	"github.com/lobsterdev/lobster/lang/source"
)

// TestDecodeUTF8 compares with what Node (the reference's runtime) makes of
// each byte string: Buffer.from(hex, "hex").toString("utf8"), encoded again.
func TestDecodeUTF8(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"e9", "efbfbd"},
		{"e282", "efbfbd"},
		{"e28241", "efbfbd41"},
		{"eda080", "efbfbdefbfbdefbfbd"}, // a surrogate
		{"c080", "efbfbdefbfbd"},         // overlong
		{"e08080", "efbfbdefbfbdefbfbd"},
		{"f4908080", "efbfbdefbfbdefbfbdefbfbd"}, // above U+10FFFF
		{"f09f98", "efbfbd"},
		{"f09f9841", "efbfbd41"},
		{"ff", "efbfbd"},
		{"fe", "efbfbd"},
		{"80", "efbfbd"},
		{"c2", "efbfbd"},
		{"e2", "efbfbd"},
		{"f0", "efbfbd"},
		{"f8888080", "efbfbdefbfbdefbfbdefbfbd"},
		{"c1bf", "efbfbdefbfbd"},
		{"efbbbf41", "efbbbf41"}, // a byte order mark stays
		{"e0a0", "efbfbd"},
		{"f0908080", "f0908080"},
		{"ed9fbf", "ed9fbf"},
		{"", ""},
		{"63616fe9", "63616fefbfbd"},
	} {
		in, _ := hex.DecodeString(tt.in)
		if got := hex.EncodeToString(source.DecodeUTF8(in)); got != tt.want {
			t.Errorf("DecodeUTF8(%s) = %s, want %s", tt.in, got, tt.want)
		}
		if got := hex.EncodeToString([]byte(source.DecodeUTF8String(string(in)))); got != tt.want {
			t.Errorf("DecodeUTF8String(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
	valid := []byte("café")
	if got := source.DecodeUTF8(valid); &got[0] != &valid[0] {
		t.Error("DecodeUTF8 copied valid text")
	}
}
