"""Full draughts games against `tablero hub` through pydraughts' HubEngine.

    python hub_games.py TABLERO_BINARY

Plays tablero against itself (two engine processes, full strength against level 4) in international, Russian and
English draughts with a clock; one side ponders and is sent ponder-hit from another
thread, as pydraughts intends (joined before the next command, so that the two
threads never write to the engine at once). pydraughts resolves every Hub move the engine sends
against its own board (an unknown or illegal move raises), and this script checks it
is among pydraughts' legal moves too; every game must end by pydraughts' rules.
Prints one line per game.
"""

import sys
import threading
import time

import draughts
from draughts.engine import HubEngine, Limit

# pydraughts' variant name -> the `variant` value tablero announces.
VARIANTS = [("standard", "normal"), ("russian", "russian"), ("english", "english")]
# A safety cap: pydraughts' own draw rules end every game well before it.
MAX_PLIES = 400


def start(binary, variant, level):
    engine = HubEngine([binary, "hub"])
    if engine.id.get("name") != "tablero":
        raise RuntimeError(f"unexpected id {engine.id}")
    if variant not in engine.variants or "level" not in engine.options:
        raise RuntimeError(f"variant {variant} or level missing: {engine.variants} {engine.options}")
    engine.configure({"variant": variant, "hash": 16, "level": level})
    engine.init()
    engine.ping()
    return engine


def ponder_hit_once_pondering(engine, answered):
    """Sends `ponder-hit` once `go ponder` is out, unless the engine has answered
    already (Hub lets an engine answer while pondering, e.g. with one legal move)."""
    while engine._last_sent != "go ponder" and not answered.is_set():
        time.sleep(0.001)
    if not answered.is_set():
        engine.ponderhit()


def play(binary, pd_variant, hub_variant):
    board = draughts.Board(variant=pd_variant)
    # Full strength against level 4, so that most games end before the draw rules.
    first = start(binary, hub_variant, 10)
    second = start(binary, hub_variant, 4)
    engines = {board.turn: first}
    engines[2 if board.turn == 1 else 1] = second
    try:
        limit = Limit(time=0.8, inc=0.01)
        plies = 0
        scored = 0
        while not board.is_over() and plies < MAX_PLIES:
            engine = engines[board.turn]
            ponder = engine is first and plies % 4 == 0
            answered = threading.Event()
            hit = None
            if ponder:
                # pydraughts' play() blocks until `done`: ponder-hit comes from here.
                hit = threading.Thread(target=ponder_hit_once_pondering, args=(engine, answered))
                hit.start()
            try:
                result = engine.play(board, limit, ponder=ponder)
            finally:
                answered.set()
                if hit is not None:
                    hit.join()
            legal = [m.board_move for m in board.legal_moves()]
            if result.move is None or result.move.board_move not in legal:
                raise RuntimeError(f"illegal move {result.move} in {board.fen}")
            if "score" in result.info and "depth" in result.info:
                scored += 1
            board.push(result.move)
            plies += 1
        if not board.is_over():
            raise RuntimeError(f"the game did not finish in {MAX_PLIES} plies: {board.fen}")
        if scored == 0:
            raise RuntimeError("no info line carried a depth and a score")
        winner = board.winner()
        result = {0: "1/2-1/2", 1: "0-1", 2: "1-0"}[winner]
        return result, plies
    finally:
        for engine in (first, second):
            engine.quit()
            engine.p.communicate(timeout=10)


def main():
    binary = sys.argv[1]
    for number, (pd_variant, hub_variant) in enumerate(VARIANTS):
        result, plies = play(binary, pd_variant, hub_variant)
        print(f"{pd_variant} game {number + 1}: {result} after {plies} plies")


if __name__ == "__main__":
    main()
