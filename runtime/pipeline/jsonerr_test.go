package pipeline

import (
	"errors"
	"testing"
)

// TestJSONErrorMessage compares with the messages JSON.parse gave for these
// texts under the reference's Node (v20, recorded with node -e).
func TestJSONErrorMessage(t *testing.T) {
	tests := []struct{ text, want string }{
		{"nope", "Unexpected token 'o', \"nope\" is not valid JSON"},
		{"xxxxxxxxxxxxxxxxxxxxx", "Unexpected token 'x', \"xxxxxxxxxx\"... is not valid JSON"},
		{"[1,2,xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "Unexpected token 'x', \"[1,2,xxxxxxxxxx\"... is not valid JSON"},
		{"{\"a\":1,}", "Expected double-quoted property name in JSON at position 7"},
		{"[1,]", "Unexpected token ']', \"[1,]\" is not valid JSON"},
		{"[1 2]", "Expected ',' or ']' after array element in JSON at position 3"},
		{"{\"a\" 1}", "Expected ':' after property name in JSON at position 5"},
		{"{\"a\":1 \"b\"}", "Expected ',' or '}' after property value in JSON at position 7"},
		{"\"abc", "Unterminated string in JSON at position 4"},
		{"[1,2", "Expected ',' or ']' after array element in JSON at position 4"},
		{"1 2", "Unexpected non-whitespace character after JSON at position 2"},
		{"{", "Expected property name or '}' in JSON at position 1"},
		{"-", "No number after minus sign in JSON at position 1"},
		{"01", "Unexpected number in JSON at position 1"},
		{"\"\\x\"", "Bad escaped character in JSON at position 2"},
		{"tru", "Unexpected end of JSON input"},
		{"trux", "Unexpected token 'x', \"trux\" is not valid JSON"},
		{"1.", "Unterminated fractional number in JSON at position 2"},
		{"1e", "Exponent part is missing a number in JSON at position 2"},
		{"{\"a\":", "Unexpected end of JSON input"},
		{"[-]", "No number after minus sign in JSON at position 2"},
		{"1x", "Unexpected non-whitespace character after JSON at position 1"},
		{"é", "Unexpected token 'é', \"é\" is not valid JSON"},
		{"[1,,2]", "Unexpected token ',', \"[1,,2]\" is not valid JSON"},
		{"{,}", "Expected property name or '}' in JSON at position 1"},
		{"{\"a\":1}}", "Unexpected non-whitespace character after JSON at position 7"},
		{"\"\\u12", "Bad Unicode escape in JSON at position 5"},
		{"{'a':1}", "Expected property name or '}' in JSON at position 1"},
		{"NaN", "\"NaN\" is not valid JSON"},
		{"[\"a\u0001\"]", "Bad control character in string literal in JSON at position 3"},
		{"[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,x,16,17,18,19,20,21,22]", "Unexpected token 'x', ...\",13,14,15,x,16,17,18\"... is not valid JSON"},
		{"[1,2,3,4,5,6,7,8,9,x]", "Unexpected token 'x', ...\"5,6,7,8,9,x]\" is not valid JSON"},
		{"{\"é\":[1,2,3,4,5,6,7,8,9,10,€]}", "Unexpected token '€', ...\",7,8,9,10,€]}\" is not valid JSON"},
		{"Infinity", "\"Infinity\" is not valid JSON"},
		{"[1e+]", "Exponent part is missing a number in JSON at position 4"},
		{"\"\\ud83d\\ude00\" x", "Unexpected non-whitespace character after JSON at position 15"},
	}
	for _, tt := range tests {
		if got := jsonErrorMessage(tt.text, errors.New("fallback")); got != tt.want {
			t.Errorf("%q: got %q, want %q", tt.text, got, tt.want)
		}
	}
	if got := jsonErrorMessage("[1]", errors.New("fallback")); got != "fallback" {
		t.Errorf("valid JSON: %q", got)
	}
}
