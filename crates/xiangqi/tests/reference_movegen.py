#!/usr/bin/env python3
"""Independent cross-check of the xiangqi perft suite (tests/data/xiangqi.perft).

A small, slow, deliberately plain pure-Python xiangqi move generator written
from the rules of the game (not derived from any engine's code): it generates
pseudo-legal moves piece by piece, then drops every move after which the
mover's own general is attacked or the two generals face each other on an
open file. Perft counts leaves of the legal-move tree.

Run it from anywhere (standard library only; no engine needed):

    python3 crates/xiangqi/tests/reference_movegen.py                 # depth <= 3, ~3 min
    python3 crates/xiangqi/tests/reference_movegen.py --max-depth 8 --max-nodes 1000000  # ~15 min
    python3 crates/xiangqi/tests/reference_movegen.py --fsf /usr/games/fairy-stockfish  # + divides

By default it checks every `perft <depth> <nodes>` line of the data file with
depth <= --max-depth (default 3) and nodes <= --max-nodes (default unlimited),
and also checks that every position is legal (one general per side inside its
palace, advisors and elephants on their points, soldiers not behind their
start rank, piece counts, the side not to move not in check, generals not
facing). With --fsf PATH it additionally compares its perft divide (per root
move, depths 1..--max-depth) with Fairy-Stockfish's `go perft` output for each
position, which localises any disagreement to a root move.

It prints one line per position and a summary, and exits non-zero on any
mismatch or illegal position.

Board conventions (the same as the data file): files a..i from red's left,
ranks 0..9 from red's back rank; FEN ranks are listed from rank 9 down to
rank 0; red is upper case and moves first ('w'), black is 'b'. Letters:
k general, a advisor, b elephant, n horse, r chariot, c cannon, p soldier.
Moves are printed as e.g. h2e2 (file letter + rank digit 0..9); Fairy-Stockfish
numbers ranks 1..10 and is converted when compared.
"""

import argparse
import os
import subprocess
import sys
import time

FILES = "abcdefghi"
ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
# Horse: (destination offset, leg offset). The leg is the orthogonally
# adjacent point in the direction of the long side of the move.
HORSE = tuple(
    ((2 * sx, sy), (sx, 0)) for sx in (1, -1) for sy in (1, -1)
) + tuple(((sx, 2 * sy), (0, sy)) for sx in (1, -1) for sy in (1, -1))


def on_board(f, r):
    return 0 <= f < 9 and 0 <= r < 10


def is_red(piece):
    return piece.isupper()


def side_of(piece):
    return "w" if piece.isupper() else "b"


def other(side):
    return "b" if side == "w" else "w"


def in_palace(side, f, r):
    if not 3 <= f <= 5:
        return False
    return 0 <= r <= 2 if side == "w" else 7 <= r <= 9


def on_own_half(side, r):
    return r <= 4 if side == "w" else r >= 5


def forward(side):
    return 1 if side == "w" else -1


def crossed_river(side, r):
    return r >= 5 if side == "w" else r <= 4


class Position:
    """board[r][f] holds a piece letter or None."""

    def __init__(self, board, side):
        self.board = board
        self.side = side

    @staticmethod
    def from_fen(fen):
        fields = fen.split()
        rows = fields[0].split("/")
        if len(rows) != 10:
            raise ValueError("need 10 ranks: %r" % fen)
        board = [[None] * 9 for _ in range(10)]
        for i, row in enumerate(rows):
            r = 9 - i
            f = 0
            for ch in row:
                if ch.isdigit():
                    f += int(ch)
                elif ch.lower() in "kabnrcp":
                    if f >= 9:
                        raise ValueError("rank %d too long in %r" % (r, fen))
                    board[r][f] = ch
                    f += 1
                else:
                    raise ValueError("bad character %r in %r" % (ch, fen))
            if f != 9:
                raise ValueError("rank %d has %d files in %r" % (r, f, fen))
        side = fields[1] if len(fields) > 1 else "w"
        if side not in ("w", "b"):
            raise ValueError("bad side %r" % side)
        return Position(board, side)

    def fen(self):
        rows = []
        for r in range(9, -1, -1):
            row, empty = "", 0
            for f in range(9):
                p = self.board[r][f]
                if p is None:
                    empty += 1
                else:
                    if empty:
                        row += str(empty)
                        empty = 0
                    row += p
            if empty:
                row += str(empty)
            rows.append(row)
        return "/".join(rows) + " " + self.side

    def general(self, side):
        target = "K" if side == "w" else "k"
        for r in range(10):
            for f in range(9):
                if self.board[r][f] == target:
                    return f, r
        return None

    # ------------------------------------------------------------------
    # Pseudo-legal moves, one piece kind at a time, straight from the rules.
    # ------------------------------------------------------------------
    def pseudo_moves(self):
        side = self.side
        moves = []
        b = self.board

        def can_land(f, r):
            p = b[r][f]
            return p is None or side_of(p) != side

        for r in range(10):
            for f in range(9):
                p = b[r][f]
                if p is None or side_of(p) != side:
                    continue
                kind = p.lower()
                if kind == "k":
                    # One step orthogonally, never leaving the palace.
                    for df, dr in ORTHOGONAL:
                        nf, nr = f + df, r + dr
                        if in_palace(side, nf, nr) and can_land(nf, nr):
                            moves.append((f, r, nf, nr))
                elif kind == "a":
                    # One step diagonally, never leaving the palace.
                    for df, dr in DIAGONAL:
                        nf, nr = f + df, r + dr
                        if in_palace(side, nf, nr) and can_land(nf, nr):
                            moves.append((f, r, nf, nr))
                elif kind == "b":
                    # Two steps diagonally; the middle point (the "eye") must be
                    # empty; never crossing the river.
                    for df, dr in DIAGONAL:
                        nf, nr = f + 2 * df, r + 2 * dr
                        if not on_board(nf, nr) or not on_own_half(side, nr):
                            continue
                        if b[r + dr][f + df] is not None:
                            continue
                        if can_land(nf, nr):
                            moves.append((f, r, nf, nr))
                elif kind == "n":
                    # One step orthogonally then one diagonally outwards; the
                    # orthogonal point (the "leg") must be empty.
                    for (df, dr), (lf, lr) in HORSE:
                        nf, nr = f + df, r + dr
                        if not on_board(nf, nr):
                            continue
                        if b[r + lr][f + lf] is not None:
                            continue
                        if can_land(nf, nr):
                            moves.append((f, r, nf, nr))
                elif kind == "r":
                    # Any distance orthogonally; captures the first piece met.
                    for df, dr in ORTHOGONAL:
                        nf, nr = f + df, r + dr
                        while on_board(nf, nr):
                            q = b[nr][nf]
                            if q is None:
                                moves.append((f, r, nf, nr))
                            else:
                                if side_of(q) != side:
                                    moves.append((f, r, nf, nr))
                                break
                            nf, nr = nf + df, nr + dr
                elif kind == "c":
                    # Moves like a chariot without capturing; captures only by
                    # jumping exactly one piece (the screen, of either colour)
                    # onto the first piece beyond it.
                    for df, dr in ORTHOGONAL:
                        nf, nr = f + df, r + dr
                        while on_board(nf, nr) and b[nr][nf] is None:
                            moves.append((f, r, nf, nr))
                            nf, nr = nf + df, nr + dr
                        # (nf, nr) is now the screen or off the board.
                        nf, nr = nf + df, nr + dr
                        while on_board(nf, nr):
                            q = b[nr][nf]
                            if q is not None:
                                if side_of(q) != side:
                                    moves.append((f, r, nf, nr))
                                break
                            nf, nr = nf + df, nr + dr
                elif kind == "p":
                    # Forward one step; once across the river also one step
                    # sideways; never backwards.
                    steps = [(0, forward(side))]
                    if crossed_river(side, r):
                        steps += [(1, 0), (-1, 0)]
                    for df, dr in steps:
                        nf, nr = f + df, r + dr
                        if on_board(nf, nr) and can_land(nf, nr):
                            moves.append((f, r, nf, nr))
        return moves

    # ------------------------------------------------------------------
    # Attacks on a point, again piece kind by piece kind.
    # ------------------------------------------------------------------
    def attacked_by(self, f, r, attacker):
        """Whether a piece of side `attacker` could capture on (f, r)."""
        b = self.board

        def is_enemy(q, kind):
            return q is not None and side_of(q) == attacker and q.lower() == kind

        # Chariot (first piece on a line) and cannon (second piece on a line).
        for df, dr in ORTHOGONAL:
            nf, nr = f + df, r + dr
            seen = 0
            while on_board(nf, nr):
                q = b[nr][nf]
                if q is not None:
                    seen += 1
                    if seen == 1 and is_enemy(q, "r"):
                        return True
                    if seen == 2:
                        if is_enemy(q, "c"):
                            return True
                        break
                nf, nr = nf + df, nr + dr
        # Horse: a horse standing at (f, r) - offset reaches (f, r) if its own
        # leg (next to the horse) is empty.
        for (df, dr), (lf, lr) in HORSE:
            hf, hr = f - df, r - dr
            if on_board(hf, hr) and is_enemy(b[hr][hf], "n"):
                if b[hr + lr][hf + lf] is None:
                    return True
        # Soldier: forward step, or sideways step once across the river.
        fwd = forward(attacker)
        if on_board(f, r - fwd) and is_enemy(b[r - fwd][f], "p"):
            return True
        for df in (1, -1):
            sf = f + df
            if on_board(sf, r) and is_enemy(b[r][sf], "p") and crossed_river(attacker, r):
                return True
        # Advisor and elephant (they can never reach the enemy palace, but are
        # included so that this is a complete "can capture here" test).
        for df, dr in DIAGONAL:
            af, ar = f + df, r + dr
            if on_board(af, ar) and is_enemy(b[ar][af], "a") and in_palace(attacker, f, r):
                return True
            ef, er = f + 2 * df, r + 2 * dr
            if (
                on_board(ef, er)
                and is_enemy(b[er][ef], "b")
                and b[r + dr][f + df] is None
                and on_own_half(attacker, r)
            ):
                return True
        # General: one orthogonal step inside its palace.
        for df, dr in ORTHOGONAL:
            gf, gr = f + df, r + dr
            if on_board(gf, gr) and is_enemy(b[gr][gf], "k") and in_palace(attacker, f, r):
                return True
        return False

    def generals_face(self):
        red, black = self.general("w"), self.general("b")
        if red is None or black is None or red[0] != black[0]:
            return False
        f = red[0]
        return all(self.board[r][f] is None for r in range(red[1] + 1, black[1]))

    def in_check(self, side):
        g = self.general(side)
        return self.attacked_by(g[0], g[1], other(side)) or self.generals_face()

    def make(self, move):
        f, r, nf, nr = move
        board = [row[:] for row in self.board]
        board[nr][nf] = board[r][f]
        board[r][f] = None
        return Position(board, other(self.side))

    def legal_moves(self):
        result = []
        for move in self.pseudo_moves():
            child = self.make(move)
            if not child.in_check(self.side):
                result.append(move)
        return result


def perft(pos, depth):
    if depth == 0:
        return 1
    moves = pos.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(pos.make(m), depth - 1) for m in moves)


def divide(pos, depth):
    return {move_name(m): perft(pos.make(m), depth - 1) for m in pos.legal_moves()}


def move_name(move):
    f, r, nf, nr = move
    return "%s%d%s%d" % (FILES[f], r, FILES[nf], nr)


# ----------------------------------------------------------------------
# Position legality (what a position in the suite must satisfy).
# ----------------------------------------------------------------------
ADVISOR_POINTS = {"w": {(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)}}
ADVISOR_POINTS["b"] = {(f, 9 - r) for f, r in ADVISOR_POINTS["w"]}
ELEPHANT_POINTS = {"w": {(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)}}
ELEPHANT_POINTS["b"] = {(f, 9 - r) for f, r in ELEPHANT_POINTS["w"]}
MAX_COUNT = {"k": 1, "a": 2, "b": 2, "n": 2, "r": 2, "c": 2, "p": 5}


def legality_problems(pos):
    problems = []
    counts = {}
    for r in range(10):
        for f in range(9):
            p = pos.board[r][f]
            if p is None:
                continue
            side, kind = side_of(p), p.lower()
            counts[p] = counts.get(p, 0) + 1
            where = "%s at %s%d" % (p, FILES[f], r)
            if kind == "k" and not in_palace(side, f, r):
                problems.append(where + " outside its palace")
            if kind == "a" and (f, r) not in ADVISOR_POINTS[side]:
                problems.append(where + " not on an advisor point")
            if kind == "b" and (f, r) not in ELEPHANT_POINTS[side]:
                problems.append(where + " not on an elephant point")
            if kind == "p":
                rel = r if side == "w" else 9 - r  # 3 = start rank
                if rel < 3 or (rel <= 4 and f % 2 == 1):
                    problems.append(where + " cannot be reached by a soldier")
    for p in "KABNRCPkabnrcp":
        n = counts.get(p, 0)
        if p.lower() == "k" and n != 1:
            problems.append("%d pieces %s" % (n, p))
        elif n > MAX_COUNT[p.lower()]:
            problems.append("%d pieces %s" % (n, p))
    if not problems:
        if pos.generals_face():
            problems.append("generals face each other")
        elif pos.in_check(other(pos.side)):
            problems.append("the side not to move is in check")
    return problems


# ----------------------------------------------------------------------
# The suite file and the optional Fairy-Stockfish comparison.
# ----------------------------------------------------------------------
def parse_suite(path):
    cases = []
    with open(path) as fh:
        for number, line in enumerate(fh, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            key, _, value = line.partition(" ")
            if key == "id":
                cases.append({"id": value, "epd": None, "checks": []})
            elif key == "epd":
                cases[-1]["epd"] = value.strip()
            elif key == "perft":
                d, n = value.split()
                cases[-1]["checks"].append((int(d), int(n)))
            else:
                raise SystemExit("line %d: unknown key %r" % (number, key))
    return cases


class UciEngine:
    """Fairy-Stockfish over UCI pipes, in xiangqi mode. Shared by the cross-check
    scripts of this folder (make_perft_suite.py and validate_repetition_cases.py
    import it from here)."""

    def __init__(self, path):
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1
        )
        self.send("uci")
        lines = self.read_until(lambda l: l == "uciok")
        self.name = next(
            (l[len("id name "):] for l in lines if l.startswith("id name ")), "?"
        )
        self.send("setoption name UCI_Variant value xiangqi")
        self.send("setoption name Threads value 1")
        self.send("isready")
        self.read_until(lambda l: l == "readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, done):
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("fairy-stockfish exited")
            line = line.strip()
            lines.append(line)
            if done(line):
                return lines


class Fsf(UciEngine):
    """Perft divides from Fairy-Stockfish (only for --fsf)."""

    def divide(self, fen, depth):
        self.send("position fen " + fen)
        self.send("go perft %d" % depth)
        lines = self.read_until(lambda l: l.startswith("Nodes searched"))
        result = {}
        for line in lines[:-1]:
            if ":" in line and " " not in line.split(":")[0]:
                mv, n = line.split(":")
                result[from_fsf_move(mv.strip())] = int(n)
        return result

    def close(self):
        self.send("quit")
        self.proc.wait()


def from_fsf_move(mv):
    """Fairy-Stockfish writes ranks 1..10; ours are 0..9 (e.g. b10 -> b9)."""
    i = 1
    while mv[i].isdigit():
        i += 1
    return "%s%d%s%d" % (mv[0], int(mv[1:i]) - 1, mv[i], int(mv[i + 1 :]) - 1)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("suite", nargs="?", default=os.path.join(here, "data", "xiangqi.perft"))
    ap.add_argument("--max-depth", type=int, default=3)
    ap.add_argument("--max-nodes", type=int, default=None)
    ap.add_argument("--fsf", metavar="PATH", help="also compare divides with Fairy-Stockfish")
    ap.add_argument("--only", metavar="ID", action="append", help="check only these ids")
    args = ap.parse_args()

    cases = parse_suite(args.suite)
    if args.only:
        cases = [c for c in cases if c["id"] in args.only]
    fsf = Fsf(args.fsf) if args.fsf else None
    failures, checked, divides = 0, 0, 0
    start = time.time()
    for case in cases:
        notes = []
        try:
            pos = Position.from_fen(case["epd"])
        except ValueError as e:
            print("FAIL %s: %s" % (case["id"], e))
            failures += 1
            continue
        problems = legality_problems(pos)
        if problems:
            notes.append("illegal position: " + "; ".join(problems))
        for depth, expected in case["checks"]:
            if depth > args.max_depth or (args.max_nodes and expected > args.max_nodes):
                continue
            got = perft(pos, depth)
            checked += 1
            if got != expected:
                notes.append("perft %d = %d, file says %d" % (depth, got, expected))
        if fsf:
            for depth in range(1, args.max_depth + 1):
                ours = divide(pos, depth)
                theirs = fsf.divide(case["epd"], depth)
                divides += 1
                if ours != theirs:
                    keys = sorted(set(ours) | set(theirs))
                    diff = ", ".join(
                        "%s ours %s fsf %s" % (k, ours.get(k), theirs.get(k))
                        for k in keys
                        if ours.get(k) != theirs.get(k)
                    )
                    notes.append("divide %d differs from fairy-stockfish: %s" % (depth, diff))
        if notes:
            failures += 1
            for note in notes:
                print("FAIL %s: %s" % (case["id"], note))
        else:
            print("ok   %s" % case["id"])
    if fsf:
        fsf.close()
    print(
        "%d positions, %d perft lines checked%s, %d failed (%.0f s)"
        % (
            len(cases),
            checked,
            ", %d divides compared with fairy-stockfish" % divides if fsf else "",
            failures,
            time.time() - start,
        )
    )
    return 1 if failures or not cases else 0


if __name__ == "__main__":
    sys.exit(main())
