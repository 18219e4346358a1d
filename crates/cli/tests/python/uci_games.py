"""Full games against `tablero uci` through python-chess's chess.engine.

    python uci_games.py TABLERO_BINARY

Plays tablero against itself (two engine processes) in standard chess and in
Chess960, with a clock, pondering on one side and analysis with MultiPV. python-chess
checks every move it is given; any protocol error raises. Prints one line per game.
"""

import sys

import chess
import chess.engine


def play(binary, chess960, seed):
    board = chess.Board.from_chess960_pos(seed % 960) if chess960 else chess.Board()
    white = chess.engine.SimpleEngine.popen_uci([binary, "uci"])
    black = chess.engine.SimpleEngine.popen_uci([binary, "uci"])
    try:
        for engine in (white, black):
            engine.configure({"Hash": 16, "Skill Level": 10})
        limit = chess.engine.Limit(white_clock=0.8, black_clock=0.8, white_inc=0.01, black_inc=0.01)
        plies = 0
        while not board.is_game_over(claim_draw=True) and plies < 120:
            engine = white if board.turn == chess.WHITE else black
            # A copy: python-chess keeps the board it is given to recognise a ponder
            # hit later, and would take the pushes below for the opponent playing
            # the pondered move, then never stop that search before the analysis.
            result = engine.play(board.copy(), limit, ponder=(board.turn == chess.WHITE))
            if result.move is None or result.move not in board.legal_moves:
                raise RuntimeError(f"no legal move from tablero in {board.fen()}")
            board.push(result.move)
            plies += 1
        # Analysis with several lines from the final position, if the game goes on.
        if not board.is_game_over():
            infos = white.analyse(board.copy(), chess.engine.Limit(depth=4), multipv=3)
            lines = min(3, board.legal_moves.count())
            assert len(infos) == lines, f"{len(infos)} lines of {lines} in {board.fen()}: {infos}"
            for info in infos:
                assert "pv" in info and "score" in info, f"{info} in {board.fen()}"
                assert info["pv"][0] in board.legal_moves, f"{info} in {board.fen()}"
        return board.result(claim_draw=True), plies
    finally:
        white.quit()
        black.quit()


def main():
    binary = sys.argv[1]
    for number, chess960 in enumerate([False, False, True, True]):
        result, plies = play(binary, chess960, seed=number * 317 + 5)
        kind = "chess960" if chess960 else "standard"
        print(f"{kind} game {number + 1}: {result} after {plies} plies")


if __name__ == "__main__":
    main()
