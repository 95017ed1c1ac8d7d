"""Integer maximum flow (Edmonds-Karp) with deterministic tie-breaking.

Used by strategic movement (Phase 4.1.3), where each territory's value caps the units
entering, leaving or passing it: a node-capacitated flow, modelled by splitting every
territory into an "in" and an "out" node joined by an edge of the territory's capacity.
Nodes are added in a caller-chosen (sorted) order and searched breadth-first in that
order, so the same graph always yields the same flow and the same paths.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable
from operator import sub

INF = 10**9


class Unsearched:
    """max_flow's `first` when the caller did not search: the network finds its own path."""


UNSEARCHED = Unsearched()


class FlowNetwork:
    def __init__(self) -> None:
        self._ids: dict[Hashable, int] = {}
        self._names: list[Hashable] = []
        # Per node: list of edge indexes. Edges live in parallel arrays; edge e ^ 1 is its reverse.
        self._out: list[list[int]] = []
        self._to: list[int] = []
        self._cap: list[int] = []
        self._orig: list[int] = []
        self._sealed = False  # nodes and edges shared with another network (with_capacities)
        # Per node: its forward edges only (even indexes), built once when asked and shared
        # with the networks sharing the edges; `_pushed`: flow was pushed (reverse edges may
        # then carry some back, so the search needs them all).
        self._forward: list[list[int]] | None = None
        self._pushed = False

    def node(self, name: Hashable) -> int:
        # one lookup for a node already there: a strategic move's network asks some 370 times
        found = self._ids.get(name)
        if found is None:
            assert not self._sealed, "a network sharing its nodes gets no new ones"
            found = self._ids[name] = len(self._names)
            self._names.append(name)
            self._out.append([])
        return found

    def add_edge(self, a: Hashable, b: Hashable, cap: int) -> None:
        assert not self._sealed, "a network sharing its edges gets no new ones"
        u, v = self.node(a), self.node(b)
        e = len(self._to)  # the edge u->v is e, its reverse v->u is e + 1 (= e ^ 1: e is even)
        self._out[u].append(e)
        self._out[v].append(e + 1)
        self._to += (v, u)
        self._cap += (cap, 0)
        self._orig += (cap, 0)
        self._forward = None  # found again with this edge when next asked

    def with_capacities(self, caps: list[int]) -> FlowNetwork:
        """A network with these nodes and edges (shared, not copied: neither may get more
        afterwards) and its own capacities, `caps[i]` for the `i`-th edge added: a
        strategic move's graph is built once per region, origin and destinations, and each
        move only sets what the rails have left (issue 14, the engine's cost)."""
        assert len(caps) * 2 == len(self._to)
        twin = FlowNetwork()
        twin._ids, twin._names, twin._out, twin._to = self._ids, self._names, self._out, self._to
        twin._forward = self._forward_edges()
        twin._cap = [0] * len(self._to)
        twin._cap[0::2] = caps  # edge e's reverse is e + 1, with nothing to carry until flow is pushed
        twin._orig = list(twin._cap)
        self._sealed = twin._sealed = True
        return twin

    def edges(self) -> int:
        """How many edges were added (the reverse ones not counted): the next one added is
        the `edges()`-th, the network's edge 2 * edges()."""
        return len(self._to) // 2

    def capacities(self) -> list[int]:
        """The capacity of each edge as added, in order (not the reverse ones)."""
        return self._orig[0::2]

    def _forward_edges(self) -> list[list[int]]:
        """Each node's edges less the reverse ones: the edges the search can follow before
        any flow is pushed, when every reverse edge is empty."""
        if self._forward is None:
            self._forward = [[e for e in edges if not e & 1] for edges in self._out]
        return self._forward

    def _augmenting_path(self, s: int, t: int) -> list[int] | None:
        parent_edge = [-1] * len(self._names)
        seen = [False] * len(self._names)
        seen[s] = True
        queue = deque([s])
        # Before the first push every reverse edge is empty, so the search passes them by
        # either way: it looks at the forward ones only, in the same order, and finds the
        # same path with half the looks (a strategic move's first search, mostly its only
        # one: issue 14, the engine's cost).
        out = self._out if self._pushed else self._forward_edges()
        to, cap = self._to, self._cap  # (read as locals: the search's inner loop)
        while queue:
            u = queue.popleft()
            for e in out[u]:
                if cap[e] > 0 and not seen[v := to[e]]:  # (a full edge, half of them, costs no more look)
                    seen[v], parent_edge[v] = True, e
                    if v == t:
                        return self._edges_back(parent_edge, s, t)
                    queue.append(v)
        return None

    def _edges_back(self, parent_edge: list[int], s: int, t: int) -> list[int]:
        path, v = [], t
        while v != s:
            e = parent_edge[v]
            path.append(e)
            v = self._to[e ^ 1]
        return path[::-1]

    def max_flow(self, source: Hashable, sink: Hashable, cut: int | None = None,
                 first: list[int] | None | Unsearched = UNSEARCHED) -> int:
        """The most that can flow from source to sink, pushed. `cut`: the capacity of a cut
        between them that the caller knows (no more can flow). `first`: the first augmenting
        path (its edges, or None: there is none) when the caller found it as this network's
        own search would, on what it knows of the network's shape (phase4_strategic)."""
        s, t = self.node(source), self.node(sink)
        # Once the edges into the sink (or the caller's cut) are full no path is left: the
        # search that would prove it, over every node still reachable, is skipped (the same
        # flow, found with half the searches when the rails carry every unit asked for: issue 14)
        room = sum(self._orig[e ^ 1] for e in self._out[t] if e & 1)
        if cut is not None:
            room = min(room, cut)
        total = 0
        while total < room:
            path = self._augmenting_path(s, t) if isinstance(first, Unsearched) else first
            first = UNSEARCHED
            if path is None:
                break
            push = min(self._cap[e] for e in path)
            self._pushed = True
            for e in path:
                self._cap[e] -= push
                self._cap[e ^ 1] += push
            total += push
        return total

    def path_nodes(self, path: list[int]) -> list[Hashable]:
        """The nodes `path` (its edges) passes, after the first one's start."""
        return [self._names[self._to[e]] for e in path]

    def flow_paths(self, source: Hashable, sink: Hashable) -> list[tuple[list[Hashable], int]]:
        """Split the current flow into source-to-sink paths with their amounts (call after max_flow)."""
        # The flow on each edge: original capacity less what is left. A reverse edge (capacity
        # 0) comes out at 0 or below, as it was zero before: the walk follows flow > 0 only.
        flow = list(map(sub, self._orig, self._cap))
        s, t = self.node(source), self.node(sink)
        paths: list[tuple[list[Hashable], int]] = []
        while True:
            walk = self._walk(flow, s, t)
            if walk is None:
                return paths
            amount = min(flow[e] for e in walk)
            for e in walk:
                flow[e] -= amount
            nodes = [self._names[s]] + [self._names[self._to[e]] for e in walk]
            paths.append((nodes, amount))

    def _walk(self, flow: list[int], s: int, t: int) -> list[int] | None:
        """Follow positive flow from s to t. A flow cycle met on the way is cancelled
        (subtracting its smallest flow keeps conservation), so every walk ends at t."""
        edges: list[int] = []
        nodes = [s]
        while nodes[-1] != t:
            u = nodes[-1]
            e = next((e for e in self._out[u] if flow[e] > 0), None)
            if e is None:
                return None  # only at s: no flow left
            v = self._to[e]
            if v in nodes:
                k = nodes.index(v)
                cycle = edges[k:] + [e]
                low = min(flow[c] for c in cycle)
                for c in cycle:
                    flow[c] -= low
                del edges[k:]
                del nodes[k + 1:]
                continue
            edges.append(e)
            nodes.append(v)
        return edges
