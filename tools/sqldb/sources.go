package sqldb

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// Sources is the set of data sources of one session, each with a unique
// name. Tools take an optional source argument to pick one; it may be left
// out when there is only one.
type Sources struct {
	list []*Source
}

// NewSources gathers open sources into a set. Two sources with the same
// name are told apart by a numeric suffix (shop, shop_2).
func NewSources(srcs ...*Source) *Sources {
	ss := &Sources{}
	taken := map[string]bool{}
	for _, s := range srcs {
		if s == nil {
			continue
		}
		name := s.name
		for n := 2; taken[strings.ToLower(name)]; n++ {
			name = fmt.Sprintf("%s_%d", s.name, n)
		}
		s.name = name
		taken[strings.ToLower(name)] = true
		ss.list = append(ss.list, s)
	}
	return ss
}

// namedURL matches "name=url", the way a source is given a name on the
// command line (--db sales=postgres://…).
var namedURL = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_-]*)=(.+)$`)

// OpenSources opens every URL (each may be "name=url" to set its name)
// with opts, and gathers them into a set. On failure it closes what it
// opened.
func OpenSources(ctx context.Context, urls []string, opts Options) (*Sources, error) {
	var opened []*Source
	for _, u := range urls {
		o := opts
		if m := namedURL.FindStringSubmatch(strings.TrimSpace(u)); m != nil && !strings.Contains(m[1], ":") {
			o.Name, u = m[1], m[2]
		} else if len(urls) > 1 {
			o.Name = ""
		}
		s, err := Open(ctx, u, o)
		if err != nil {
			for _, s := range opened {
				s.Close()
			}
			return nil, err
		}
		opened = append(opened, s)
	}
	return NewSources(opened...), nil
}

// All returns the sources, in the order they were given.
func (ss *Sources) All() []*Source { return append([]*Source(nil), ss.list...) }

// Names returns the sources' names, in order.
func (ss *Sources) Names() []string {
	out := make([]string, len(ss.list))
	for i, s := range ss.list {
		out[i] = s.name
	}
	return out
}

// Len is the number of sources.
func (ss *Sources) Len() int { return len(ss.list) }

// Get returns the source named name (ignoring case). An empty name picks
// the only source; with several it is an error naming them.
func (ss *Sources) Get(name string) (*Source, error) {
	name = strings.TrimSpace(name)
	if len(ss.list) == 0 {
		return nil, fmt.Errorf("%w: no databases are configured for this session", ErrUnknownSource)
	}
	if name == "" {
		if len(ss.list) == 1 {
			return ss.list[0], nil
		}
		return nil, fmt.Errorf("%w: there are %d databases (%s); say which one with source", ErrUnknownSource, len(ss.list), strings.Join(ss.Names(), ", "))
	}
	for _, s := range ss.list {
		if strings.EqualFold(s.name, name) {
			return s, nil
		}
	}
	suggest := ""
	if near := nearest(name, ss.Names(), 1); len(near) > 0 {
		suggest = fmt.Sprintf(" (did you mean %q?)", near[0])
	}
	return nil, fmt.Errorf("%w: there is no database %q; the databases are %s%s", ErrUnknownSource, name, strings.Join(ss.Names(), ", "), suggest)
}

// Context describes every source's schema for the request, sharing
// budgetTokens (counted as EstimateTokens does) equally between them.
func (ss *Sources) Context(ctx context.Context, request string, budgetTokens int) (string, error) {
	if len(ss.list) == 0 {
		return "", nil
	}
	if budgetTokens <= 0 {
		budgetTokens = DefaultContextTokens
	}
	share := budgetTokens / len(ss.list)
	var b strings.Builder
	for _, s := range ss.list {
		text, err := s.Context(ctx, request, share)
		if err != nil {
			return "", err
		}
		b.WriteString(text)
	}
	return b.String(), nil
}

// DialectNotes are the notes of every dialect among the sources (see
// DialectNotes), one "- " line each, for a prompt; "" when none has any.
func (ss *Sources) DialectNotes() string {
	seen := map[Dialect]bool{}
	var out []string
	for _, s := range ss.All() {
		if d := s.Dialect(); !seen[d] {
			seen[d] = true
			if n := DialectNotes(d); n != "" {
				out = append(out, "- "+n)
			}
		}
	}
	return strings.Join(out, "\n")
}

// Close closes every source.
func (ss *Sources) Close() error {
	var errs []error
	for _, s := range ss.list {
		errs = append(errs, s.Close())
	}
	return errors.Join(errs...)
}
