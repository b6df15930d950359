#!/usr/bin/env python3
"""Prints a records file (match, sprt, tournament --out) with its games sorted by pair and white
player and without the thinking-time tags: two runs of the same games compare equal however
their games were scheduled (scripts/demo-games-cluster.sh)."""
import re
import sys

games = [g for g in re.split(r"\n(?=\[Event )", open(sys.argv[1]).read().strip()) if g]


def key(g):
    pair = re.search(r'^\[Pair "(\d+)"\]', g, re.M)
    white = re.search(r'^\[White "(.*)"\]', g, re.M)
    return (int(pair.group(1)) if pair else -1, white.group(1) if white else "")


for g in sorted(games, key=key):
    print("\n".join(line for line in g.splitlines() if 'Seconds "' not in line))
    print()
