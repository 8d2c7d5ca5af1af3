package lsp

import (
	"testing"

	"go.lsp.dev/protocol"

	"github.com/lobsterdev/lobster/lang/source"
)

func TestMapperRoundTrip(t *testing.T) {
	// "é" is 2 bytes and 1 unit, "漢" 3 bytes and 1 unit, "😀" 4 bytes
	// and 2 units.
	text := "a: é漢😀x\r\nb: 😀😀y\n\nc"
	m := Mapper{File: source.NewFile("t.lobster", []byte(text))}
	tests := []struct {
		offset int
		pos    protocol.Position
	}{
		{0, protocol.Position{Line: 0, Character: 0}},
		{3, protocol.Position{Line: 0, Character: 3}},  // é
		{5, protocol.Position{Line: 0, Character: 4}},  // 漢
		{8, protocol.Position{Line: 0, Character: 5}},  // 😀
		{12, protocol.Position{Line: 0, Character: 7}}, // x
		{13, protocol.Position{Line: 0, Character: 8}}, // \r: end of line
		{15, protocol.Position{Line: 1, Character: 0}},
		{18, protocol.Position{Line: 1, Character: 3}},
		{22, protocol.Position{Line: 1, Character: 5}},
		{26, protocol.Position{Line: 1, Character: 7}}, // y
		{28, protocol.Position{Line: 2, Character: 0}},
		{29, protocol.Position{Line: 3, Character: 0}},
		{30, protocol.Position{Line: 3, Character: 1}}, // end of text
	}
	for _, tt := range tests {
		if got := m.Position(tt.offset); got != tt.pos {
			t.Errorf("Position(%d) = %v, want %v", tt.offset, got, tt.pos)
		}
		if tt.offset == 13 {
			continue // the \r is not addressable
		}
		if got, ok := m.Offset(tt.pos); got != tt.offset || !ok {
			t.Errorf("Offset(%v) = %d, %v, want %d, true", tt.pos, got, ok, tt.offset)
		}
	}
}

func TestMapperOutOfRange(t *testing.T) {
	text := "ab😀\ncd"
	m := Mapper{File: source.NewFile("t.lobster", []byte(text))}
	tests := []struct {
		pos    protocol.Position
		offset int
		ok     bool
	}{
		{protocol.Position{Line: 0, Character: 3}, 2, true},   // inside the surrogate pair
		{protocol.Position{Line: 0, Character: 99}, 6, false}, // past the line end
		{protocol.Position{Line: 7, Character: 0}, 9, false},  // past the last line
		{protocol.Position{Line: 1, Character: 2}, 9, true},
	}
	for _, tt := range tests {
		got, ok := m.Offset(tt.pos)
		if got != tt.offset || ok != tt.ok {
			t.Errorf("Offset(%v) = %d, %v, want %d, %v", tt.pos, got, ok, tt.offset, tt.ok)
		}
	}
	if got := m.Position(-5); got != (protocol.Position{}) {
		t.Errorf("Position(-5) = %v", got)
	}
	if got := m.Position(1000); got != (protocol.Position{Line: 1, Character: 2}) {
		t.Errorf("Position(1000) = %v", got)
	}
}

func TestMapperInvalidUTF8(t *testing.T) {
	m := Mapper{File: source.NewFile("t", []byte("a\xffb"))}
	if got := m.Position(2); got.Character != 2 {
		t.Errorf("Position(2) = %v, want character 2", got)
	}
	if got, _ := m.Offset(protocol.Position{Character: 2}); got != 2 {
		t.Errorf("Offset = %d, want 2", got)
	}
}
