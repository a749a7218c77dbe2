package policy

import (
	"fmt"
	"regexp"
	"sync"
)

// Patterns are the texts a setting of text takes (ignore=REGEX), each held
// once: a Policy stays small and comparable by holding a pattern's index,
// never the pattern. Index 0 is the empty pattern, the setting's default:
// nothing removed.
type Patterns struct {
	mu    sync.RWMutex
	texts []string
	res   []*regexp.Regexp
	index map[string]int
}

func newPatterns() *Patterns {
	return &Patterns{texts: []string{""}, res: []*regexp.Regexp{nil}, index: map[string]int{"": 0}}
}

// Intern is the index of the pattern text, added when new; an error when it
// is not a regular expression (Go's RE2 syntax).
func (p *Patterns) Intern(text string) (int, error) {
	p.mu.RLock()
	i, ok := p.index[text]
	p.mu.RUnlock()
	if ok {
		return i, nil
	}
	re, err := regexp.Compile(text)
	if err != nil {
		return 0, fmt.Errorf("%q is not a regular expression: %v", text, err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if i, ok := p.index[text]; ok {
		return i, nil
	}
	p.texts, p.res = append(p.texts, text), append(p.res, re)
	p.index[text] = len(p.texts) - 1
	return len(p.texts) - 1, nil
}

// Text is the pattern at index i; "" for one never interned.
func (p *Patterns) Text(i int) string {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if i < 0 || i >= len(p.texts) {
		return ""
	}
	return p.texts[i]
}

// Regexp is the compiled pattern at index i; nil for the empty one.
func (p *Patterns) Regexp(i int) *regexp.Regexp {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if i < 0 || i >= len(p.res) {
		return nil
	}
	return p.res[i]
}

// known reports whether i is an index of a pattern.
func (p *Patterns) known(i int) bool {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return i >= 0 && i < len(p.texts)
}
