"""Reads the 960 Chess960 start FENs tablero writes (one per line, in number order,
on standard input) and checks each against python-chess: the same position as its
start of that number, with castling rights python-chess reads in Chess960 mode."""
import sys

import chess

fens = [line.strip() for line in sys.stdin if line.strip()]
assert len(fens) == 960, f"{len(fens)} starts"
for number, fen in enumerate(fens):
    theirs = chess.Board.from_chess960_pos(number)
    ours = chess.Board(fen, chess960=True)
    assert ours.is_valid(), f"start {number}: {fen} is not valid for python-chess"
    assert ours.board_fen() == theirs.board_fen(), f"start {number}: {fen} vs {theirs.fen()}"
    assert ours.castling_rights == theirs.castling_rights, f"start {number}: castling of {fen}"
    assert ours.chess960_pos() == number, f"start {number}: {fen}"
print("960 starts agree")
