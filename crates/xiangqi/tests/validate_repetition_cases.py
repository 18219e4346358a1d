#!/usr/bin/env python3
"""Checks tests/data/repetition.cases, the xiangqi repetition-adjudication cases.

How to run:

    apt-get install -y fairy-stockfish        # Debian package, /usr/games/fairy-stockfish
    pip install pyffish                       # optional: second opinion on each ruling
    python3 crates/xiangqi/tests/validate_repetition_cases.py [--fsf PATH] [--cases FILE] [-v]

What it checks, for every case (all checks use the Fairy-Stockfish binary over UCI,
`setoption name UCI_Variant value xiangqi`):

  1. the FEN is accepted unchanged (`position fen ...` then `d`; board and side compared);
  2. every move is legal where it is played: it is among the `go perft 1` moves of the
     position reached so far;
  3. the sequence ends on the start position, which then has occurred exactly three times
     (at ply 0, in the middle and at the end), and no position reached its third
     occurrence earlier (so an implementation that adjudicates at the first threefold
     repetition adjudicates exactly at the last move, on the whole sequence);
  4. the record is well formed: id unique, expect in {draw, red-loses, black-loses},
     a rule id present.

Second opinion (only if the Python package pyffish is importable; it bundles a recent
Fairy-Stockfish, 0.0.90 when this was written, whose xiangqi variant has
perpetualCheckIllegal = true, nFoldRule = 3 and chasingRule = AXF_CHASING): the ruling of
pyffish.is_optional_game_end() at the end of the sequence is compared with `expect`.
A disagreement is reported but is not a failure (Fairy-Stockfish's chase detection is
known to be incomplete, see its issues #55 and #468); each known disagreement is also noted
in a comment beside its case. The Debian binary (11.1) predates the chasing rule, so it is
only used for legality.

Fairy-Stockfish prints and reads moves with ranks 1..10; the cases use ICCS (ranks 0..9).
The script prints one line per problem and a closing "N passed, N failed" line; it exits
non-zero when any case fails a check (1-4).
"""

import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference_movegen as ref  # noqa: E402  (the shared engine driver)

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CASES = os.path.join(HERE, "data", "repetition.cases")
FILES = "abcdefghi"
EXPECTS = ("draw", "red-loses", "black-loses")


class Engine(ref.UciEngine):
    """Fairy-Stockfish for move legality and position identity."""

    def position(self, fen, moves):
        cmd = "position fen " + fen
        if moves:
            cmd += " moves " + " ".join(to_fsf(m) for m in moves)
        self.send(cmd)

    def legal_moves(self, fen, moves):
        self.position(fen, moves)
        self.send("go perft 1")
        lines = self.read_until(lambda l: l.startswith("Nodes searched"))
        return {from_fsf(l.split(":")[0]) for l in lines if ": " in l and not l.startswith("Nodes")}

    def fen_after(self, fen, moves):
        self.position(fen, moves)
        self.send("d")
        lines = self.read_until(lambda l: l.startswith("Fen:"))
        # drain the rest of the `d` output up to a sync point
        self.send("isready")
        self.read_until(lambda l: l == "readyok")
        return lines[-1][len("Fen:"):].strip()

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


def split_move(m):
    """ICCS 'h2e2' -> ((7, 2), (4, 2))."""
    if len(m) != 4 or m[0] not in FILES or m[2] not in FILES or not m[1].isdigit() or not m[3].isdigit():
        raise ValueError("not an ICCS move: %r" % m)
    return (FILES.index(m[0]), int(m[1])), (FILES.index(m[2]), int(m[3]))


def to_fsf(m):
    split_move(m)
    return "%s%d%s%d" % (m[0], int(m[1]) + 1, m[2], int(m[3]) + 1)


def from_fsf(m):
    # e.g. a1a2, h10g8
    i = 1
    while m[i].isdigit():
        i += 1
    return "%s%d%s%d" % (m[0], int(m[1:i]) - 1, m[i], int(m[i + 1:]) - 1)


def key(fen):
    """Board and side to move: what decides 'the same position'."""
    parts = fen.split()
    return parts[0] + " " + parts[1]


def parse_cases(path):
    cases, cur, errors = [], None, []
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            word, _, rest = line.partition(" ")
            rest = rest.strip()
            if word == "id":
                cur = {"id": rest, "line": n}
                cases.append(cur)
            elif cur is None:
                errors.append("line %d: %r before the first id" % (n, word))
            elif word in ("fen", "moves", "expect", "rule"):
                if word in cur:
                    errors.append("line %d: %s given twice in %s" % (n, word, cur["id"]))
                cur[word] = rest
            else:
                errors.append("line %d: unknown key %r" % (n, word))
    return cases, errors


def pyffish_ruling(fen, moves):
    try:
        import pyffish as sf
    except ImportError:
        return None
    fs = [to_fsf(m) for m in moves]
    end, value = sf.is_optional_game_end("xiangqi", fen, fs)
    if not end:
        return "none"
    if value == 0:
        return "draw"
    stm = sf.get_fen("xiangqi", fen, fs).split()[1]
    loser = stm if value < 0 else ("b" if stm == "w" else "w")
    return "red-loses" if loser == "w" else "black-loses"


def check_case(engine, case):
    problems = []
    for k in ("fen", "moves", "expect", "rule"):
        if not case.get(k):
            problems.append("missing %s" % k)
    if problems:
        return problems
    if case["expect"] not in EXPECTS:
        problems.append("expect %r is not one of %s" % (case["expect"], ", ".join(EXPECTS)))
    fen = case["fen"]
    moves = case["moves"].split()
    try:
        for m in moves:
            split_move(m)
    except ValueError as e:
        return [str(e)]

    shown = engine.fen_after(fen, [])
    if key(shown) != key(fen):
        return ["fairy-stockfish shows FEN %r for %r" % (shown, fen)]

    seen = {key(fen): 1}
    for i, m in enumerate(moves):
        legal = engine.legal_moves(fen, moves[:i])
        if m not in legal:
            problems.append("move %d (%s) is illegal" % (i + 1, m))
            return problems
        k = key(engine.fen_after(fen, moves[:i + 1]))
        seen[k] = seen.get(k, 0) + 1
        if seen[k] == 3 and i + 1 != len(moves):
            problems.append("position %r occurs a third time after move %d, before the end" % (k, i + 1))
            return problems
    final = key(engine.fen_after(fen, moves))
    if final != key(fen):
        problems.append("sequence ends on %r, not on the start position" % final)
    elif seen[key(fen)] != 3:
        problems.append("start position occurs %d times, want 3" % seen[key(fen)])
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fsf", default=os.environ.get("FSF", "/usr/games/fairy-stockfish"),
                    help="Fairy-Stockfish binary (default /usr/games/fairy-stockfish or $FSF)")
    ap.add_argument("--cases", default=DEFAULT_CASES)
    ap.add_argument("-v", "--verbose", action="store_true", help="print every case")
    args = ap.parse_args()

    cases, errors = parse_cases(args.cases)
    for e in errors:
        print("format:", e)
    ids = {}
    for c in cases:
        if c["id"] in ids:
            errors.append("duplicate id %s" % c["id"])
            print("format: duplicate id", c["id"])
        ids[c["id"]] = c

    engine = Engine(args.fsf)
    passed = failed = disagree = 0
    have_pyffish = pyffish_ruling("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", []) is not None
    try:
        for c in cases:
            problems = check_case(engine, c)
            if problems:
                failed += 1
                for p in problems:
                    print("FAIL %s: %s" % (c["id"], p))
                continue
            passed += 1
            note = ""
            if have_pyffish:
                ruling = pyffish_ruling(c["fen"], c["moves"].split())
                if ruling != c["expect"]:
                    disagree += 1
                    note = " (pyffish says %s)" % ruling
                    print("disagree %s: expect %s, pyffish %s" % (c["id"], c["expect"], ruling))
            if args.verbose:
                print("ok %s: %s%s" % (c["id"], c["expect"], note))
    finally:
        engine.close()
    if not have_pyffish:
        print("pyffish not installed: no second opinion on the rulings")
    else:
        print("pyffish second opinion: %d of %d rulings differ" % (disagree, passed))
    failed += len(errors)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
