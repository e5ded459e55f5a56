package blueprint

import (
	"fmt"
	"slices"
	"strings"
)

// Resources taken in different orders can deadlock: checkOrder refuses a
// cycle of "b taken while a is held" edges, as a lock-order checker does.

// holding is a resource held where another is taken: which, and by what.
type holding struct {
	res  int
	line int
	what string
}

// edge says where b was first taken while a was held.
type edge struct {
	held  holding // a, and where it was taken
	line  int     // where b was taken
	what  string
	taken int // b
}

// orderGraph is the "taken while holding" relation.
type orderGraph struct {
	next  map[int][]int
	edges map[[2]int]edge
}

// checkOrder walks the whole flow, building the graph.
func (p *parser) checkOrder(flow *group) error {
	g := &orderGraph{next: map[int][]int{}, edges: map[[2]int]edge{}}
	return p.walkOrder(g, flow, nil)
}

func (p *parser) walkOrder(g *orderGraph, n node, held []holding) error {
	switch n := n.(type) {
	case *step:
		_, err := p.take(g, held, n.taken(), n.line, n.what)
		return err
	case *group:
		held, err := p.take(g, held, n.taken(), n.line, n.what)
		if err != nil {
			return err
		}
		for _, it := range n.items {
			if err := p.walkOrder(g, it, held); err != nil {
				return err
			}
		}
	case *parallel:
		for _, b := range n.branches {
			if err := p.walkOrder(g, b, held); err != nil {
				return err
			}
		}
	case *pipe:
		for _, st := range n.stages {
			if err := p.walkOrder(g, st.body, held); err != nil {
				return err
			}
		}
	}
	return nil
}

// take adds the edges of taking res while holding held. Only the edge
// from the last held is added: held is a path of edges already, so the
// graph reaches what it would with an edge from each, and a step holding
// many resources adds as many edges, not their square.
func (p *parser) take(g *orderGraph, held []holding, res []int, line int, what string) ([]holding, error) {
	held = held[:len(held):len(held)] // appending must not write into the caller's
	name := func(r int) string { return p.b.Resources[r].Name }
	for _, r := range res {
		for _, h := range held {
			if h.res == r {
				return nil, &Error{File: p.file, Line: line, Err: fmt.Errorf(
					"%s: takes %s while already holding it (taken at line %d): it would wait for itself", what, name(r), h.line)}
			}
		}
		if len(held) > 0 {
			last := held[len(held)-1]
			key := [2]int{last.res, r}
			if _, ok := g.edges[key]; !ok {
				from := g.reach(r)
				for _, h := range held {
					if _, ok := from[h.res]; !ok {
						continue
					}
					c := &cycle{what: what, takes: name(r), holding: name(h.res), line: h.line}
					for _, e := range g.path(from, r, h.res) {
						c.but = append(c.but, cycleEdge{e.what, e.line, name(e.taken), name(e.held.res)})
					}
					return nil, &Error{File: p.file, Line: line, Err: c}
				}
				g.edges[key] = edge{held: last, line: line, what: what, taken: r}
				g.next[last.res] = append(g.next[last.res], r)
			}
		}
		held = append(held, holding{res: r, line: line, what: what})
	}
	return held, nil
}

// cycle is taking resource takes while holding holding (taken at line),
// where each of but takes them the other way round: a cycle.
type cycle struct {
	what, takes, holding string
	line                 int
	but                  []cycleEdge
}

// cycleEdge is one step of a cycle: what at line takes taken while
// holding held.
type cycleEdge struct {
	what        string
	line        int
	taken, held string
}

func (c *cycle) Error() string {
	but := make([]string, len(c.but))
	for i, e := range c.but {
		but[i] = fmt.Sprintf("%s at line %d takes %s while holding %s", e.what, e.line, e.taken, e.held)
	}
	return fmt.Sprintf("%s: takes %s while holding %s (taken at line %d), but %s: a cycle, which can deadlock; want the resources taken in one order everywhere",
		c.what, c.takes, c.holding, c.line, strings.Join(but, ", and "))
}

// reach is every resource reachable from a, breadth first, with the one
// each was reached from.
func (g *orderGraph) reach(a int) map[int]int {
	from := map[int]int{a: a}
	queue := []int{a}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, v := range g.next[u] {
			if _, seen := from[v]; !seen {
				from[v] = u
				queue = append(queue, v)
			}
		}
	}
	return from
}

// path returns the edges of the path reach found from a to b.
func (g *orderGraph) path(from map[int]int, a, b int) []edge {
	var path []edge
	for v := b; v != a; v = from[v] {
		path = append(path, g.edges[[2]int{from[v], v}])
	}
	slices.Reverse(path)
	return path
}
