package main

// What a log holds, in a few figures, for a run that found nothing to
// report (the Python engine's contents module): lines, the components of
// logv2's leading "c" and the first and last leading "t" $date (of a text
// log: legacy.TEXT_LINE's comp and ts, textContents), one line per file on
// stderr, exit 0.

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

var (
	contentsDate      = []byte(`{"t":{"$date":"`)
	contentsComponent = []byte(`"c":"`)
)

const contentsHead = 256 // where a component is looked for: the line's head

type componentCount struct {
	name string
	n    int64
}

// contents: one range's figures; fed every line (scanFile with no needle).
type contents struct {
	lines       int64
	components  []componentCount // a log has a few dozen components at most
	first, last []byte
	timed       bool
}

func (c *contents) feed(_ int64, line []byte) {
	c.lines++
	if bytes.HasPrefix(line, contentsDate) {
		rest := line[len(contentsDate):]
		if end := bytes.IndexByte(rest, '"'); end >= 0 {
			if !c.timed {
				c.first, c.timed = append([]byte(nil), rest[:end]...), true
			}
			c.last = append(c.last[:0], rest[:end]...)
		}
	}
	head := line
	if len(head) > contentsHead {
		head = head[:contentsHead]
	}
	at := bytes.Index(head, contentsComponent)
	if at < 0 {
		return
	}
	rest := line[at+len(contentsComponent):]
	end := bytes.IndexByte(rest, '"')
	if end < 0 {
		return
	}
	c.count(rest[:end], 1)
}

func (c *contents) count(name []byte, n int64) {
	for i := range c.components {
		if c.components[i].name == string(name) {
			c.components[i].n += n
			return
		}
	}
	c.components = append(c.components, componentCount{string(name), n})
}

// merge folds in the range that follows this one.
func (c *contents) merge(o *contents) {
	c.lines += o.lines
	for _, comp := range o.components {
		c.count([]byte(comp.name), comp.n)
	}
	if o.timed {
		if !c.timed {
			c.first, c.timed = o.first, true
		}
		c.last = o.last
	}
}

// describeContents: contents.describe.
func describeContents(in *input) string {
	if in.stdin {
		return in.name + ": read once (stdin), not summarised"
	}
	newPart := func() feeder { return &contents{} }
	if in.text {
		newPart = func() feeder { return &textContents{} } // contents.read: the source's format's reader
	}
	var all *contents
	for _, part := range scanFile(in, newPart, nil) {
		c, ok := part.(*contents)
		if !ok {
			c = &part.(*textContents).contents
		}
		if all == nil {
			all = c
		} else {
			all.merge(c)
		}
	}
	text := fmt.Sprintf("%s: %d line(s)", in.name, all.lines)
	if len(all.components) > 0 {
		sort.Slice(all.components, func(i, j int) bool {
			a, b := all.components[i], all.components[j]
			if a.n != b.n {
				return a.n > b.n
			}
			return a.name < b.name
		})
		names := make([]string, len(all.components))
		for i, comp := range all.components {
			names[i] = fmt.Sprintf("%s %d", comp.name, comp.n)
		}
		text += "; components " + strings.Join(names, ", ")
	} else {
		text += "; no MongoDB log component"
	}
	if !all.timed {
		text += "; no time stamp"
	} else {
		text += fmt.Sprintf("; first %s, last %s", all.first, all.last)
	}
	if !utf8.ValidString(text) {
		bail("a component or time that is not UTF-8") // the Python engine's replacement characters
	}
	return text
}
