"""Maximum matchings in a general graph (Edmonds' blossom algorithm), for the
pairings: who can meet whom is a graph, a round's tables a matching of it.

:func:`maximum_matching` grows a matching it is given (say, the previous
step's, less the two entrants just seated) to a maximum one: each free vertex
is searched once for an augmenting path (Edmonds: a vertex with none never
gets one later), so a matching short of two edges costs two searches of
``O(V + E)`` each, plus the blossoms.  Pure Python, no I/O, exact.
"""

from __future__ import annotations

from collections import deque
from typing import Dict, Iterable, List, Mapping, Optional, Set


def maximum_matching(vertices: Iterable[int], adj: Mapping[int, Set[int]],
                     start: Optional[Mapping[int, int]] = None) -> Dict[int, int]:
    """A maximum matching of the graph on ``vertices`` with edges ``adj`` (only
    the neighbours among ``vertices`` count), grown from ``start`` (a matching
    of that graph, by vertex; pairs that are not edges or not among
    ``vertices`` are dropped).  Returns ``{v: mate}`` for the matched vertices."""
    vs: List[int] = sorted(set(vertices))
    index = {v: i for i, v in enumerate(vs)}
    n = len(vs)
    nb: List[List[int]] = [sorted(index[w] for w in adj.get(v, ()) if w in index and w != v)
                           for v in vs]
    match = [-1] * n
    for v, w in (start or {}).items():
        if v in index and w in index and index[w] in nb[index[v]] \
                and (start or {}).get(w) == v:
            match[index[v]] = index[w]
    for root in range(n):
        if match[root] == -1:
            _augment(root, nb, match)
    return {vs[i]: vs[j] for i, j in enumerate(match) if j != -1}


def _augment(root: int, nb: List[List[int]], match: List[int]) -> bool:
    """Search an augmenting path from the free vertex ``root`` (BFS with blossom
    contraction) and flip it; True if one was found."""
    n = len(nb)
    parent = [-1] * n
    base = list(range(n))
    used = [False] * n
    used[root] = True
    queue = deque([root])

    def lca(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if match[a] == -1:
                break
            a = parent[match[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[match[b]]

    def mark(v: int, b: int, child: int, blossom: List[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[match[v]]] = True
            parent[v] = child
            child = match[v]
            v = parent[match[v]]

    while queue:
        v = queue.popleft()
        for to in nb[v]:
            if base[v] == base[to] or match[v] == to:
                continue
            if to == root or (match[to] != -1 and parent[match[to]] != -1):
                cur = lca(v, to)
                blossom = [False] * n
                mark(v, cur, to, blossom)
                mark(to, cur, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = cur
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if match[to] == -1:
                    # flip the path root ... v - to
                    u = to
                    while u != -1:
                        pv = parent[u]
                        nxt = match[pv]
                        match[u] = pv
                        match[pv] = u
                        u = nxt
                    return True
                used[match[to]] = True
                queue.append(match[to])
    return False


def matching_size(m: Mapping[int, int]) -> int:
    """The number of edges of a matching given by vertex."""
    return len(m) // 2
