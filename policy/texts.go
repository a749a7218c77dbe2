package policy

import (
	"fmt"
	"regexp"
	"sync"
)

// interned holds values each once, by a key: a Policy stays small and
// comparable by holding a value's index, never the value. Index 0 is the
// zero value's, keyed "".
type interned[T any] struct {
	mu     sync.RWMutex
	values []T
	index  map[string]int
}

func newInterned[T any]() *interned[T] {
	var zero T
	return &interned[T]{values: []T{zero}, index: map[string]int{"": 0}}
}

// intern is the index of the value keyed key, made by build when new.
func (in *interned[T]) intern(key string, build func() (T, error)) (int, error) {
	in.mu.RLock()
	i, ok := in.index[key]
	in.mu.RUnlock()
	if ok {
		return i, nil
	}
	v, err := build()
	if err != nil {
		return 0, err
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if i, ok := in.index[key]; ok {
		return i, nil
	}
	in.values = append(in.values, v)
	in.index[key] = len(in.values) - 1
	return len(in.values) - 1, nil
}

// at is the value at index i, and whether i is one's index.
func (in *interned[T]) at(i int) (T, bool) {
	in.mu.RLock()
	defer in.mu.RUnlock()
	if i < 0 || i >= len(in.values) {
		var zero T
		return zero, false
	}
	return in.values[i], true
}

// Patterns are the texts a setting of text takes (ignore=REGEX), each held
// once (interned). Index 0 is the empty pattern, the setting's default:
// nothing removed.
type Patterns struct{ in *interned[pattern] }

// pattern is a pattern's text and its compiled form, nil for the empty one.
type pattern struct {
	text string
	re   *regexp.Regexp
}

func newPatterns() *Patterns { return &Patterns{newInterned[pattern]()} }

// intern is the index of the pattern text, added when new; an error when it
// is not a regular expression (Go's RE2 syntax).
func (p *Patterns) intern(text string) (int, error) {
	return p.in.intern(text, func() (pattern, error) {
		re, err := regexp.Compile(text)
		if err != nil {
			return pattern{}, fmt.Errorf("%q is not a regular expression: %v", text, err)
		}
		return pattern{text, re}, nil
	})
}

// text is the pattern at index i; "" for one never interned.
func (p *Patterns) text(i int) string {
	v, _ := p.in.at(i)
	return v.text
}

// compiled is the compiled pattern at index i; nil for the empty one.
func (p *Patterns) compiled(i int) *regexp.Regexp {
	v, _ := p.in.at(i)
	return v.re
}

// known reports whether i is an index of a pattern.
func (p *Patterns) known(i int) bool {
	_, ok := p.in.at(i)
	return ok
}
