#!/usr/bin/env python3
"""Cross-check tablero-draughts against pydraughts (an independent implementation).

Reads lines written by `cargo run --release --example crosscheck_dump` on stdin:
`FEN<TAB>depth<TAB>perft<TAB>moves`. For each position it compares the set of legal
moves as (from, to, captured set) and the perft count, computed here with pydraughts
and with duplicate capture paths merged (pydraughts lists each path; tablero lists each
distinct (from, to, captured set)). Spanish is not in pydraughts.

    pip install pydraughts
    cargo run --release -p tablero-draughts --example crosscheck_dump -- russian 200 1 2 \
        | python3 crates/draughts/tests/pydraughts_crosscheck.py russian

or, for a perft suite file (every line up to LIMIT leaves):

    python3 crates/draughts/tests/pydraughts_crosscheck.py --suite russian LIMIT \
        < crates/draughts/tests/data/russian.perft
"""

import sys

from draughts import Board
from draughts.convert import _number_to_algebraic

VARIANT = {
    "english": "english",
    "international": "standard",
    "brazilian": "brazilian",
    "russian": "russian",
    "italian": "italian",
}
ALGEBRAIC = {"russian", "brazilian"}


def algebraic_of(n):
    """tablero's square n on an a1-dark 8x8 board, as a1..h8."""
    row, i = divmod(n - 1, 4)
    col = 2 * i + 1 if row % 2 == 0 else 2 * i
    return "abcdefgh"[col] + str(8 - row)


ALG_TO_NUM = {algebraic_of(n): n for n in range(1, 33)}


def to_pd_fen(fen, rule_set):
    if rule_set not in ALGEBRAIC:
        return fen
    turn, white, black = fen.split(":")

    def conv(field):
        items = [x for x in field[1:].split(",") if x]
        out = []
        for x in items:
            k = "K" if x.startswith("K") else ""
            out.append(k + algebraic_of(int(x.lstrip("K"))))
        return field[0] + ",".join(out)

    return ":".join([turn, conv(white), conv(black)])


def from_pd_square(n, rule_set):
    if rule_set in ALGEBRAIC:
        return ALG_TO_NUM[_number_to_algebraic(str(n), variant=VARIANT[rule_set])]
    return n


def move_keys(board, rule_set):
    """{(from, to, frozenset(captured)): representative move}."""
    keys = {}
    for m in board.legal_moves():
        steps = m.board_move
        frm = from_pd_square(steps[0][0], rule_set)
        to = from_pd_square(steps[-1][1], rule_set)
        caps = frozenset(from_pd_square(c, rule_set) for c in (m.captures or []) if c is not None)
        keys.setdefault((frm, to, caps), m)
    return keys


def perft(board, depth, rule_set):
    if depth == 0:
        return 1
    keys = move_keys(board, rule_set)
    if depth == 1:
        return len(keys)
    total = 0
    for m in keys.values():
        board.push(m)
        total += perft(board, depth - 1, rule_set)
        board.pop()
    return total


def parse_moves(text):
    out = set()
    for item in text.split():
        squares, caps = item.split(":")
        frm, to = squares.split("-")
        out.add((int(frm), int(to), frozenset(int(c) for c in caps.split(",") if c)))
    return out


def check_suite(rule_set, limit):
    checked = failed = 0
    fen = None
    for line in sys.stdin:
        line = line.strip()
        if line.startswith("id "):
            case = line[3:]
        elif line.startswith("epd "):
            fen = line[4:]
        elif line.startswith("perft "):
            _, depth, count = line.split()
            if int(count) > limit:
                continue
            board = Board(variant=VARIANT[rule_set], fen=to_pd_fen(fen, rule_set))
            got = perft(board, int(depth), rule_set)
            checked += 1
            if got != int(count):
                failed += 1
                print(f"PERFT DIFFERS {rule_set} {case} {fen} depth {depth}: suite {count}, pydraughts {got}")
    print(f"{rule_set} suite: {checked} perft lines checked, {failed} differences")
    sys.exit(1 if failed else 0)


def main():
    if sys.argv[1] == "--suite":
        check_suite(sys.argv[2], int(sys.argv[3]))
        return
    rule_set = sys.argv[1]
    max_perft_leaves = int(sys.argv[2]) if len(sys.argv) > 2 else 400
    checked = failed = perfts = 0
    for line in sys.stdin:
        fen, depth, count, moves = (line.rstrip("\n").split("\t") + [""])[:4]
        board = Board(variant=VARIANT[rule_set], fen=to_pd_fen(fen, rule_set))
        ours = parse_moves(moves)
        theirs = set(move_keys(board, rule_set))
        checked += 1
        if ours != theirs:
            failed += 1
            fmt = lambda s: sorted((f, t, sorted(c)) for f, t, c in s)
            print(f"MOVES DIFFER {rule_set} {fen}\n  only tablero: {fmt(ours - theirs)}"
                  f"\n  only pydraughts: {fmt(theirs - ours)}")
            continue
        if int(count) <= max_perft_leaves:
            got = perft(board, int(depth), rule_set)
            perfts += 1
            if got != int(count):
                failed += 1
                print(f"PERFT DIFFERS {rule_set} {fen} depth {depth}: tablero {count}, pydraughts {got}")
    print(f"{rule_set}: {checked} positions, {perfts} perft checks, {failed} differences")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
