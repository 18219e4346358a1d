#!/usr/bin/env python3
"""Generates tests/data/xiangqi.perft, the xiangqi perft suite, from Fairy-Stockfish.

How it was used (once; the output is committed, this script is kept so the suite
can be reproduced or extended):

    apt-get install -y fairy-stockfish          # Debian package, /usr/games/fairy-stockfish
    python3 crates/xiangqi/tests/make_perft_suite.py [--fsf PATH] [--out FILE]
    python3 crates/xiangqi/tests/reference_movegen.py --fsf /usr/games/fairy-stockfish

It needs the Fairy-Stockfish binary (UCI, `setoption name UCI_Variant value
xiangqi`, `go perft N`); it was run with the Debian package fairy-stockfish
11.1-1+b1 ("Fairy-Stockfish 11.1 LB 64"). Everything else is the Python
standard library plus reference_movegen.py beside this file, used here only to
check that every hand-made position is legal (one general per side in its
palace, pieces on their points, the side not to move not in check, ...).

The positions are:
  * the start position, depths 1-5;
  * hand-made positions, each with a comment naming the rule it exercises
    (built from piece lists such as "Ke0 Ne4 ke9": upper case red, lower case
    black, file a-i, rank 0-9 from red's side), some reached by a few moves
    from a hand-made or opening position;
  * opening and middle-game positions reached by move sequences from the start;
  * positions reached by seeded random play (random legal moves taken from
    Fairy-Stockfish's own perft 1 divide).
Every position gets perft 1-3, perft 4 when it has at most 5,000,000 leaves,
and sparse positions get further depths while they stay under that bound. A few
positions get one deeper line above 5,000,000 (the suite's --ignored tests).

Each position is given to Fairy-Stockfish as `position fen ...`, and the FEN it
then shows with `d` is compared with ours (board and side), so a FEN that it
silently rejected or altered stops the script. Fairy-Stockfish prints moves
with ranks 1..10; this script and the suite use ranks 0..9 (ICCS style).
"""

import argparse
import os
import random
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import reference_movegen as ref  # noqa: E402  (legality checks only)

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
SHALLOW_LIMIT = 5_000_000
FILES = "abcdefghi"


class Fsf(ref.UciEngine):
    """The suite builder's view of Fairy-Stockfish: positions shown by `d`, divides."""

    def show(self, fen, moves=()):
        """Sets the position and returns (fen shown by `d`, checkers in our notation)."""
        cmd = "position fen " + fen
        if moves:
            cmd += " moves " + " ".join(to_fsf_move(m) for m in moves)
        self.send(cmd)
        self.send("d")
        self.send("isready")
        lines = self.read_until(lambda l: l == "readyok")
        shown = next(l[len("Fen: ") :] for l in lines if l.startswith("Fen: "))
        checkers = next(l[len("Checkers:") :] for l in lines if l.startswith("Checkers:"))
        return shown, [from_fsf_square(s) for s in checkers.split()]

    def divide(self, fen, depth):
        self.send("position fen " + fen)
        self.send("go perft %d" % depth)
        lines = self.read_until(lambda l: l.startswith("Nodes searched"))
        moves = {}
        for line in lines[:-1]:
            head, sep, tail = line.partition(":")
            if sep and head and " " not in head:
                moves[from_fsf_move(head)] = int(tail)
        total = int(lines[-1].split(":")[1])
        if depth > 0 and sum(moves.values()) != total:
            raise RuntimeError("divide does not add up for %s" % fen)
        return moves, total

    def perft(self, fen, depth):
        return self.divide(fen, depth)[1]

    def close(self):
        self.send("quit")
        self.proc.wait()


def split_square(text):
    return text[0], int(text[1:])


def from_fsf_square(s):
    f, r = split_square(s)
    return "%s%d" % (f, r - 1)


def from_fsf_move(mv):
    i = 1
    while mv[i].isdigit():
        i += 1
    return from_fsf_square(mv[:i]) + from_fsf_square(mv[i:])


def to_fsf_move(mv):
    i = 1
    while mv[i].isdigit():
        i += 1
    return "%s%d%s%d" % (mv[0], int(mv[1:i]) + 1, mv[i], int(mv[i + 1 :]) + 1)


def place(side, pieces):
    """FEN from a piece list like "Ke0 Ad0 ke9" (file a-i, rank 0-9)."""
    board = [[None] * 9 for _ in range(10)]
    for token in pieces.split():
        p, f, r = token[0], FILES.index(token[1]), int(token[2:])
        if board[r][f] is not None:
            raise ValueError("two pieces on %s" % token[1:])
        board[r][f] = p
    return ref.Position(board, side).fen() + " - - 0 1"


def normal_form(fen, fullmove=1):
    board, side = fen.split()[:2]
    return "%s %s - - 0 %d" % (board, side, fullmove)


# ----------------------------------------------------------------------
# Hand-made positions: (id, comment, fen, moves applied to it, deep depth).
# ----------------------------------------------------------------------
def hand_positions():
    P = place
    H = []

    def add(id_, comment, fen, moves=(), deep=None):
        H.append((id_, comment, fen, tuple(moves), deep))

    # --- flying general -------------------------------------------------
    add("flying-pin-horse",
        "Flying general: the red horse on e4 is the only piece between the generals on the "
        "e-file, so it is pinned and has no move at all.",
        P("w", "Ke0 Ne4 Rh3 Ca2 Pc6 Pg3 ke9 ad9 af9 pa6 pi6 nb9 rb7"))
    add("flying-pin-cannon",
        "Flying general, black to move: the black cannon on e5 is the only piece between the "
        "generals; it may slide along the e-file but not leave it, and cannot capture the red "
        "general without a screen.",
        P("b", "Ke1 Ad0 Af0 Rb2 Nc2 ke9 ce5 rh8 nc7 pg6 pc6"))
    add("flying-pin-soldier",
        "Flying general on the d-file: the crossed red soldier on d6 is the only piece between "
        "the generals, so it may step forward (d7) but not sideways.",
        P("w", "Kd1 Pd6 Pf6 Rh0 Nb0 kd8 ae8 af9 ra7 ci9 pe6"))
    add("flying-general-red-king-move",
        "Flying general: the red general on e1 may not step to d1, which would face the black "
        "general on the open d-file.",
        P("w", "Ke1 Rh4 Ci2 Pa3 kd9 af9 ae8 bg9 nh7 pc6"))
    add("flying-general-black-king-move",
        "Flying general, black to move: the black general on f8 may not step to e8 (open e-file "
        "to the red general on e0).",
        P("b", "Ke0 Af0 Rc0 Ng4 Pa3 kf8 ad9 rc5 nb7 cg5"))
    add("flying-general-open-by-capture",
        "Flying general: the only piece between the generals is the black soldier e5; red may "
        "capture it (chariot a5, cannon i5 over g5), the capturer then standing between the "
        "generals; the red general may move along the file.",
        P("w", "Ke1 Ra5 Ci5 Pg5 Nc3 Ad0 ke9 pe5 ad9 af9 rh9"))

    # --- cannons -----------------------------------------------------------
    add("cannon-screens",
        "Cannon on e5 in all four directions: captures over exactly one screen (e7 over e6, "
        "b5 over d5, g5 over the red soldier f5), none over zero screens (d5, e6) or two "
        "(h5, e9), never its own piece (e0 over e2).",
        P("w", "Ke0 Ne2 Ce5 Pf5 Ra0 ke9 ad9 af9 pe6 ne7 nd5 rb5 pg5 rh5"))
    add("cannon-check-evasions",
        "Black to move in check from the cannon on e3 over the red soldier e6: evasions are "
        "interposing a second screen (e7, e8) and capturing the cannon; capturing the screen "
        "only replaces it (still check); f9 faces the red general f0, e8 stays on the line.",
        P("b", "Kf0 Ce3 Pe6 Rh1 ke9 ad9 rc3 ng7 cb7 pa6"))
    add("cannon-check-own-screen",
        "Black to move in check from the cannon on e2 whose screen is the black horse e7: any "
        "horse move lifts the check; e8 stays attacked; the advisor may interpose on e8.",
        P("b", "Ke0 Ce2 Rg0 ke9 ne7 ad9 af9 pc6"))
    add("cannon-double-screen-discovered",
        "Two red pieces (horse e4, soldier e6) stand between the red cannon e2 and the black "
        "general: moving either off the file gives a discovered cannon check; the soldier "
        "stepping forward to e7 keeps two screens.",
        P("w", "Kd0 Ce2 Ne4 Pe6 Ra3 ke9 ad9 af9 bc9 bg9 ra8"))
    add("cannon-screen-creation",
        "The red cannon e2 faces the black general on an empty file: a red piece moving onto "
        "the file (horse to e4/e6, soldier d6-e6) becomes a screen and gives check; the "
        "chariot to e7 gives a double check with the cannon.",
        P("w", "Kf0 Ce2 Nc5 Pd6 Rh7 ke9 af9 ra9 cb7 pi6"))
    add("cannon-double-screen-pin",
        "Black cannon e7 behind two red pieces (chariot e5, horse e3) aimed at the red general "
        "e0: neither may leave the e-file (the other would become a lone screen); the chariot "
        "may slide on the file or capture the cannon.",
        P("w", "Ke0 Ad0 Ne3 Re5 Cb2 Pa3 Pc3 ke9 ad9 af9 ce7 rh9 nb9 pg6"))
    add("cannon-king-into-line",
        "Red general on d1 beside a file where a black cannon has one screen: stepping onto "
        "e1 would walk into a cannon check, stepping to d2 into a chariot check.",
        P("w", "Kd1 Af0 Pe3 Rb0 kf9 ce7 rg2 nh6 ad9"))

    # --- horses ------------------------------------------------------------
    add("horse-leg-blocking",
        "Hobbled horses: the red horse e4 has legs e5 and f4 blocked (no d6, f6, g5, g3), the "
        "horse b2 has leg c2 blocked; black horse h7 is hobbled by its own pieces.",
        P("w", "Kd0 Ne4 Pe5 Cf4 Nb2 Rc2 ke9 ad9 af9 nh7 bg9 pg6 ri9"))
    add("horse-check-leg-defence",
        "Black to move in check from the horse g8: blocking its leg on f8 (chariot f5-f8) is "
        "a defence, as is moving the general; the black cannon e4 is pinned by the flying "
        "general.",
        P("b", "Ke0 Ng8 Rb1 Pc6 ke9 ad9 rf5 ce4"))
    add("horse-check-red",
        "Red to move in check from the horse c1 (leg d1): block the leg with the chariot "
        "(d5-d1), move the general, or capture the horse with the cannon over the soldier b1.",
        P("w", "Ke0 Af0 Rd5 Ng2 Ca1 kf9 ae8 nc1 pb1 rh8"))
    add("horse-leg-pin",
        "The red horse f1 is the leg of the black horse g1 aimed at the red general e0: it "
        "cannot move (every move discovers a horse check).",
        P("w", "Ke0 Nf1 Cb2 Rh4 Pe3 kd9 ae8 ng1 ri7 cb7"))
    add("horse-checks-available",
        "Red horses b6 and h6 with checking moves on the black general (b6-c8, b6-d7, h6-g8); "
        "h6-f7 is stopped by the blocked leg g6.",
        P("w", "Ke0 Nb6 Nh6 Rd3 Pe5 ke9 ad9 af9 bg9 rh8 pg6 pa6"))

    # --- elephants, advisors, generals -----------------------------------
    add("elephant-eye-and-river",
        "Elephants: red c4 cannot cross the river (no a6/e6) and its eye d3 is blocked (no "
        "e2); red g0's eye f1 is blocked by the general (no e2); black c5 cannot cross (no "
        "a3/e3) and its eye d6 is blocked (no e7).",
        P("w", "Kf1 Ae1 Bc4 Bg0 Nd3 Pd6 ke9 af9 bc5 bg9 ra0"))
    add("elephant-eye-black",
        "Black to move: black elephants on every kind of point (centre e7, river bank, back "
        "rank, edge), eyes blocked by pieces of both colours.",
        P("b", "Kd0 Pd8 Rh1 ke9 be7 ba7 ad9 nf6 pg6 cb5"))
    add("palace-confinement",
        "Palace: red general on the corner d2 (not c2/d3), red advisors on d0 and f2, black "
        "general on f7 (not g7/f6) and advisors on e8 and d7.",
        P("w", "Kd2 Ad0 Af2 Rh0 Pe3 kf7 ae8 ad7 rb3 pc6"))
    add("palace-black-to-move",
        "Black to move in check from the cannon d5 over its own advisor d7: the general in "
        "the corner d9 has the palace centre e8 held by a red chariot; few evasions.",
        P("b", "Kf0 Re8 Cd5 kd9 af9 ad7 ba7 rb6"))

    # --- soldiers -------------------------------------------------------------
    add("soldiers-red",
        "Red soldiers: a3 and c4 have not crossed (forward only), e5 has just crossed "
        "(forward and sideways), g8 crossed, i9 on the last rank (sideways only).",
        P("w", "Kd0 Pa3 Pc4 Pe5 Pg8 Pi9 ke9 ad9 bg9 cb7 nh9"))
    add("soldiers-black",
        "Black to move, black soldiers: i6 at its start and g5 not yet across (forward only), "
        "e4 across (forward and sideways), c1 and a0 deep in red's camp (a0 on the last rank: "
        "sideways only).",
        P("b", "Kd0 Af0 Bc0 Rh5 Pa3 ke9 ad9 pi6 pg5 pe4 pc1 pa0"))
    add("soldiers-blocked",
        "Soldiers blocked by their own pieces and capturing: a red soldier whose only forward "
        "point holds a red piece, soldiers side by side on the last rank.",
        P("w", "Kd0 Pc4 Nc5 Pg9 Ph9 Pe6 ke8 ad9 pc3 pg6 rb9"))

    # --- chariots -------------------------------------------------------------
    add("chariot-pins",
        "Chariot pins: the black chariot e8 pins the red horse e3 to the red general e1 (no "
        "move); the black chariot a1 pins the red chariot c1 (it may slide to b1/d1 or "
        "capture a1).",
        P("w", "Ke1 Ne3 Rc1 Ad0 Af0 kd9 re8 ra1 af9 pg6 nb9"))
    add("chariot-pin-black",
        "Black to move: the black cannon e6 is pinned by the red chariot e3 against the black "
        "general e8; it may slide on the file, but its capture on e1 (over the chariot) would "
        "leave the line and is illegal.",
        P("b", "Kd0 Re3 Ae1 Af0 Nc4 ke8 ce6 ad9 af7 rb9 pa6"))

    # --- checkmates (no legal move, in check) ----------------------------------
    add("mate-double-chariot",
        "Checkmate, black to move (perft 1 = 0): chariots a9 and h8.",
        P("b", "Kd0 Ra9 Rh8 ke9 pc3 pg4"))
    add("mate-horse-behind-cannon",
        "Checkmate (horse behind cannon), black to move: horse e7 covers d9/f9 and is the "
        "cannon's screen.",
        P("b", "Kd0 Ne7 Ce2 ke9 pa2 pi3"))
    add("mate-double-cannon",
        "Checkmate (double cannon), black to move: interposing on e7/e8 only turns the front "
        "cannon into the checker.",
        P("b", "Kf0 Ce4 Ce6 ke9 ad9 af9 bc9 bg9"))
    add("mate-facing-general",
        "Checkmate with the help of the flying general: chariot f4 checks the general f9, "
        "e9 faces the red general.",
        P("b", "Ke0 Rf4 kf9 pa1 pc2"))
    add("mate-horse-corner",
        "Checkmate by the horse g8 with the chariot a8 guarding e8; the advisors block their "
        "own general.",
        P("b", "Kd0 Ng8 Ra8 ke9 ad9 af9"))
    add("mate-red-double-chariot",
        "Checkmate, red to move: black chariots a0 and h1.",
        P("w", "Ke0 Pc6 Pi6 kd9 ra0 rh1"))
    add("mate-red-cannon-horse",
        "Checkmate, red to move: black cannon on the e-file over the black horse e2 while the "
        "horse covers d0/f0 and the advisors are stuck.",
        P("w", "Ke1 Ad2 Af2 kf9 ne3 ce7 pd1 pf1"))

    # --- stalemates (no legal move, not in check) -----------------------------
    add("stalemate-black-soldiers",
        "Stalemate, black to move (perft 1 = 0, not in check): soldiers d8 and f8 cover "
        "d9, f9 and e8.",
        P("b", "Kd0 Pd8 Pf8 ke9"))
    add("stalemate-red-soldiers",
        "Stalemate, red to move: black soldiers d1 and f1 cover d0, f0 and e1.",
        P("w", "Ke0 kd9 pd1 pf1"))
    add("stalemate-blocked-pieces",
        "Stalemate, black to move, with four black pieces: the horse e8 has every leg "
        "blocked and fills the only advisor point.",
        P("b", "Kd0 Pd8 Pf8 Pe7 ke9 ad9 af9 ne8"))

    # --- checks with few evasions, double checks -------------------------------
    add("double-check-chariot-horse",
        "Double check (chariot e5, horse g8), black to move: only general moves help; "
        "blocking the horse leg or capturing the chariot does not.",
        P("b", "Kd0 Re5 Ng8 ke9 rf3 ra5 nc7 pa6"))
    add("double-check-chariot-cannon-line",
        "Double check by chariot e5 and cannon e3 on one file (the chariot is the cannon's "
        "screen): one interposition on e6-e8 stops both; capturing the chariot does not.",
        P("b", "Kd0 Re5 Ce3 ke9 ad9 rc7 ng6 ra5"))
    add("double-check-cannon-horse",
        "Double check by the cannon e2 (screen e6) and the horse c8, black to move: a single "
        "general move (d9) remains; capturing the screen or blocking the leg d8 fails.",
        P("b", "Kf0 Ce2 Pe6 Nc8 ke9 af9 nb9"))
    add("double-check-two-cannons",
        "Red to move in double check from black cannons e7 (screen e4) and a1 (screen the red "
        "horse c1): the horse c1-e2 lifts both checks at once.",
        P("w", "Ke1 Nc1 Ad0 Ra8 ke9 ad9 af9 ce7 pe4 ca1"))
    add("check-one-block",
        "Red to move in check from the chariot a0 along the back rank: one blocking move "
        "(cannon b5-b0) and one general move (e1); f0 is still on the chariot's rank.",
        P("w", "Ke0 Af0 Pe3 Cb5 kd9 ra0 rf7 ae8"))
    add("check-general-capture",
        "Black to move in check from the unprotected chariot e9 next to the general f9: the "
        "general may capture it or step to f8.",
        P("b", "Kd0 Re9 Ci2 kf9 ad9 nc7 pg6"))
    add("discovered-check-black",
        "Black to move with discovered checks: horse e3 and soldier e4 are two screens "
        "between the black cannon e7 and the red general (moving either off the file checks); "
        "the black horse g0 blocks the chariot i0 on red's back rank.",
        P("b", "Ke0 Ad0 Ra9 Nh2 kd8 ad9 ce7 pe4 ne3 ri0 ng0"))

    # --- sparse endgames --------------------------------------------------------
    add("endgame-chariot-vs-advisors",
        "Endgame: chariot against two advisors.",
        P("w", "Kd0 Rh5 ke9 ad9 ae8"))
    add("endgame-chariot-vs-horse-advisors",
        "Endgame, black to move: chariot against horse and two advisors.",
        P("b", "Kf0 Rb4 ke9 ad9 af9 ne7"))
    add("endgame-horse-soldier-vs-advisor",
        "Endgame: horse and soldier against an advisor.",
        P("w", "Ke1 Nc5 Pe6 kf9 ae8"))
    add("endgame-cannon-advisor-vs-advisor",
        "Endgame: cannon and advisor against an advisor (the cannon needs a screen).",
        P("w", "Ke0 Ae1 Ch4 kd9 af9"))
    add("endgame-soldier-vs-general",
        "Endgame: a lone crossed soldier and the flying general against a bare general.",
        P("w", "Kd0 Pe6 kf9"))
    add("endgame-soldiers-each",
        "Endgame, black to move: a soldier each, generals on different files.",
        P("b", "Kd1 Pc6 kf8 pg3"))
    add("endgame-two-horses",
        "Endgame: two horses against advisors and elephants.",
        P("w", "Kf0 Nd6 Ng5 ke9 ad9 af9 bc9 bg9"))

    # --- many-piece tactical positions --------------------------------------------
    tactical = "r1bak1b2/4a3r/1cn3nc1/p3p1p1p/2p4R1/2P6/P3C1P1P/1CN3N2/9/R1BAKAB2 w - - 0 1"
    add("tactical-crowded",
        "Many pieces with captures everywhere: chariot h5 deep in black's camp, cannons on "
        "the e-file and b-file behind screens.",
        tactical, deep=5)
    add("tactical-crowded-black",
        "The crowded position after the chariot takes the cannon on h7, black to move.",
        tactical, ["h5h7"])
    return H


# ----------------------------------------------------------------------
# Openings and middle games, as move sequences (ICCS, ranks 0-9).
# ----------------------------------------------------------------------
OPENINGS = [
    ("opening-central-cannon",
     "Opening: central cannon (red h2e2), black to move.",
     "h2e2", None),
    ("opening-central-cannon-screen-horses",
     "Opening: central cannon against screen horses, 6 plies.",
     "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7", None),
    ("opening-same-direction-cannons",
     "Opening: same-direction cannons (shun pao), 6 plies.",
     "h2e2 h7e7 h0g2 h9g7 i0h0 i9h9", None),
    ("opening-opposite-cannons",
     "Opening: opposite-direction cannons (lie pao), black to move after 5 plies.",
     "h2e2 b7e7 h0g2 b9c7 i0h0", None),
    ("opening-elephant",
     "Opening: elephant opening (red g0e2) against the pawn move, 4 plies.",
     "g0e2 c6c5 b0c2 b9c7", None),
    ("opening-pawn",
     "Opening: pawn opening (red c3c4) answered by the pawn, 2 plies.",
     "c3c4 g6g5", None),
    ("middlegame-river-chariot",
     "Middle game: central cannon with crossing chariot against screen horses, the black "
     "cannon to g8 offers the chariot exchange (16 plies).",
     "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 c3c4 g6g5 h0h6 h7i7 h6g6 i7i8 b0c2 d9e8 a0b0 i8g8",
     None),
    ("middlegame-cannon-exchange",
     "Middle game after early cannon captures on the b- and h-files, black to move (11 plies).",
     "h2h9 i9h9 b2b9 a9b9 h0g2 b7e7 b0c2 h7h5 i0h0 h5c5 g3g4",
     None),
    ("middlegame-central-attack",
     "Middle game: central cannon attack, the central soldier takes on e6 and becomes the "
     "cannon's screen: black to move in check (13 plies).",
     "h2e2 h9g7 h0g2 b9c7 i0h0 i9h9 e3e4 c6c5 e4e5 g6g5 h0h6 b7a7 e5e6", None),
]


def opening_positions():
    result = []
    for id_, comment, moves, deep in OPENINGS:
        result.append((id_, comment, START, tuple(moves.split()), deep))
    return result


# ----------------------------------------------------------------------
def build(fsf, out, seed):
    entries = []  # (id, [comment lines], fen, checks)
    t0 = time.time()

    def checks_for(fen, deep=None):
        """perft 1-3 always; further depths while the count stays <= SHALLOW_LIMIT
        (for sparse positions that can mean depth 5 or more); then up to `deep`."""
        checks = []
        for depth in range(1, 9):
            n = fsf.perft(fen, depth)
            if depth > 3 and n > SHALLOW_LIMIT:
                break
            checks.append((depth, n))
            if depth >= 3:
                prev = checks[-2][1] if len(checks) > 1 else 1
                if n == 0 or n * n / max(prev, 1) > 3 * SHALLOW_LIMIT:
                    break
        if deep is not None:
            for d in range(checks[-1][0] + 1, deep + 1):
                checks.append((d, fsf.perft(fen, d)))
        return checks

    def resolve(fen, moves):
        """Applies moves one by one, each checked against fairy-stockfish's legal list."""
        cur = fen
        for i, mv in enumerate(moves):
            legal, _ = fsf.divide(cur, 1)
            if mv not in legal:
                raise SystemExit("move %d %s is illegal in %s" % (i + 1, mv, cur))
            shown, _ = fsf.show(cur, [mv])
            cur = shown
        return cur

    def register(id_, comments, fen, moves=(), deep=None, plies=None):
        if moves:
            fen = resolve(fen, moves)
        fullmove = 1 + (plies or len(moves)) // 2
        fen = normal_form(fen, fullmove if (moves or plies) else 1)
        pos = ref.Position.from_fen(fen)
        problems = ref.legality_problems(pos)
        if problems:
            raise SystemExit("%s: illegal position %s: %s" % (id_, fen, "; ".join(problems)))
        shown, checkers = fsf.show(fen)
        if shown.split()[:2] != fen.split()[:2]:
            raise SystemExit("%s: fairy-stockfish shows %s for %s" % (id_, shown, fen))
        ours_in_check = pos.in_check(pos.side)
        if bool(checkers) != ours_in_check:
            raise SystemExit("%s: check status differs (fsf %s)" % (id_, checkers))
        checks = checks_for(fen, deep=deep)
        side = "red" if pos.side == "w" else "black"
        status = "%s to move, %s" % (
            side,
            "in check from " + " ".join(checkers) if checkers else "not in check",
        )
        if checks[0][1] == 0:
            status += ", no legal move (%s)" % ("checkmate" if checkers else "stalemate")
        else:
            status += ", %d legal moves" % checks[0][1]
        if moves:
            status += "; reached by " + " ".join(moves)
        entries.append((id_, comments + [status], fen, checks))
        print("%-40s %s  %s  (%.0f s)" % (id_, fen, checks, time.time() - t0), flush=True)

    register("start", ["The start position."], START, deep=5)

    for id_, comment, fen, moves, deep in hand_positions():
        register(id_, [comment], fen, moves, deep)
    for id_, comment, fen, moves, deep in opening_positions():
        register(id_, [comment], fen, moves, deep)

    rng = random.Random(seed)
    targets = [10, 15, 20, 26, 32, 38, 44, 50, 56, 62, 68, 74, 80, 86, 92, 98, 104, 110, 116, 120]
    for plies in targets:
        while True:
            moves, cur = [], START
            for _ in range(plies):
                legal, _ = fsf.divide(cur, 1)
                if not legal:
                    break
                mv = rng.choice(sorted(legal))
                moves.append(mv)
                cur, _ = fsf.show(cur, [mv])
            if len(moves) == plies and fsf.divide(cur, 1)[0]:
                break
        deep = 5 if plies in (32, 92) else None
        register(
            "random-ply%d" % plies,
            ["Random legal play from the start position, %d plies (seed %d)." % (plies, seed),
             "Moves: " + " ".join(moves)],
            cur, (), deep, plies,
        )

    write(out, entries, fsf.name, seed)


def write(out, entries, engine, seed):
    lines = [
        "# Perft test suite: xiangqi (Chinese chess).",
        "#",
        "# Blocks of an \"id\" line, an \"epd\" line holding a xiangqi FEN (files a-i from red's",
        "# left, ranks from black's back rank down to red's, red upper case, side w = red,",
        "# b = black) and \"perft <depth> <leaf nodes>\" lines. Lines starting with '#' are",
        "# comments. Move lists in comments use ICCS squares with ranks 0-9 (h2e2).",
        "#",
        "# Counts come from %s (Debian package fairy-stockfish," % engine,
        "# UCI_Variant xiangqi, `go perft N`), produced by tests/make_perft_suite.py (random",
        "# play seed %d). Every perft line of at most 1,000,000 nodes (any depth), and the" % seed,
        "# perft divides at depths 1-3 of every position, were reproduced by an independent",
        "# generator written from the rules, tests/reference_movegen.py. Lines over",
        "# 5,000,000 nodes are deep lines, run on demand with",
        "# `cargo test --release -- --ignored`.",
        "# Stalemate loses in xiangqi, but perft only counts legal moves: a mated or",
        "# stalemated side to move has perft 1 = 0.",
        "",
    ]
    for id_, comments, fen, checks in entries:
        for c in comments:
            lines.extend(wrap("# " + c))
        lines.append("id " + id_)
        lines.append("epd " + fen)
        for d, n in checks:
            lines.append("perft %d %d" % (d, n))
        lines.append("")
    with open(out, "w") as fh:
        fh.write("\n".join(lines))
    print("wrote %s: %d positions, %d perft lines" % (
        out, len(entries), sum(len(e[3]) for e in entries)))


def wrap(text, width=88):
    words = text.split()
    lines, cur = [], words[0]
    for w in words[1:]:
        if len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = "# " + w
        else:
            cur += " " + w
    lines.append(cur)
    return lines


def main():
    ap = argparse.ArgumentParser(description="Generate the xiangqi perft suite.")
    ap.add_argument("--fsf", default="/usr/games/fairy-stockfish")
    ap.add_argument("--out", default=os.path.join(HERE, "data", "xiangqi.perft"))
    ap.add_argument("--seed", type=int, default=20240601)
    ap.add_argument("--check-only", action="store_true",
                    help="only validate the hand-made positions and print their boards")
    args = ap.parse_args()
    fsf = Fsf(args.fsf)
    if args.check_only:
        for id_, comment, fen, moves, deep in hand_positions():
            pos = ref.Position.from_fen(fen)
            problems = ref.legality_problems(pos)
            n = len(pos.legal_moves())
            print(id_, fen, "in check" if pos.in_check(pos.side) else "", n, problems)
        return 0
    build(fsf, args.out, args.seed)
    fsf.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
