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
            result = engine.play(board, limit, ponder=(board.turn == chess.WHITE))
            if result.move is None or result.move not in board.legal_moves:
                raise RuntimeError(f"no legal move from tablero in {board.fen()}")
            board.push(result.move)
            plies += 1
        # Analysis with several lines from the final position, if the game goes on.
        if not board.is_game_over():
            infos = white.analyse(board, chess.engine.Limit(depth=4), multipv=3)
            assert infos and all("pv" in info and "score" in info for info in infos)
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
