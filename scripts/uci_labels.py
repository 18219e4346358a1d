"""Labels positions with a UCI engine's search: the shared part of
`scripts/label-with-stockfish` (chess) and `scripts/label-with-fairy-stockfish`
(xiangqi).

The engines are spoken to over pipes directly: python-chess's `analyse`, which the
chess labeller used before, parses every `info` line into objects and cost about as
much CPU as Stockfish's own depth-7 search, so on a machine where every core runs
an engine it made labelling half as fast. An engine that dies or does not answer
within TIMEOUT seconds stops the run with an error naming the line; a line that is
not a FEN of the game is skipped with a message naming it.
"""

import multiprocessing
import queue
import re
import subprocess
import sys
import threading
import time

# Seconds to wait for an answer: generous for depths under 15 on a slow machine.
TIMEOUT = 120
SCALE = 400.0
SCORE = re.compile(r"\bscore (cp|mate) (-?\d+)")
XIANGQI_RANK = re.compile(r"^[rnbakcpRNBAKCP1-9]+$")

# Engine, its options, and how many positions one engine process labels (its hash
# table carries over from one position to the next, so the chunks shape the labels
# a little: these are the sizes the shipped networks' data were labelled in).
GAMES = {
    "chess": ("/usr/games/stockfish", [], 2000),
    "xiangqi": ("/usr/games/fairy-stockfish", ["setoption name UCI_Variant value xiangqi"], 200),
}


class EngineError(Exception):
    pass


class Engine:
    """One engine process, read through a thread so that reads can time out."""

    def __init__(self, program, options):
        try:
            self.proc = subprocess.Popen(
                [program],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except OSError as e:
            raise EngineError(f"cannot start {program}: {e}") from e
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send("uci")
        self.wait_for("uciok")
        for option in options:
            self.send(option)
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 16")
        self.send("isready")
        self.wait_for("readyok")

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)  # end of output: the engine is gone

    def send(self, command):
        try:
            self.proc.stdin.write(command + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise EngineError(f"the engine is gone ({e})") from e

    def next_line(self, deadline):
        try:
            line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise EngineError(f"no answer within {TIMEOUT} s") from None
        if line is None:
            code = self.proc.wait()
            raise EngineError(f"the engine died (exit code {code})")
        return line

    def wait_for(self, token):
        deadline = time.monotonic() + TIMEOUT
        while self.next_line(deadline).split()[:1] != [token]:
            pass

    def score(self, fen, depth):
        """The score for the side to move: ("cp", x) or ("mate", y)."""
        self.send(f"position fen {fen}")
        self.send(f"go depth {depth}")
        deadline = time.monotonic() + TIMEOUT
        score = None
        while True:
            line = self.next_line(deadline)
            if line.startswith("bestmove"):
                break
            found = SCORE.search(line)
            # A bound from an aspiration window is not the final word.
            if found and "bound" not in line:
                score = (found.group(1), int(found.group(2)))
        if score is None:
            raise EngineError("no score before bestmove")
        return score

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except (EngineError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


def xiangqi_fen_problem(fen):
    """Why `fen` is not a xiangqi FEN, or None."""
    fields = fen.split()
    if len(fields) < 2:
        return "fewer than two fields"
    ranks = fields[0].split("/")
    if len(ranks) != 10:
        return f"{len(ranks)} ranks, not 10"
    for rank in ranks:
        if not XIANGQI_RANK.match(rank):
            return f"rank {rank!r} has a character that is no xiangqi piece"
        if sum(int(c) if c.isdigit() else 1 for c in rank) != 9:
            return f"rank {rank!r} is not 9 points wide"
    if fields[1] not in ("w", "b"):
        return f"side to move {fields[1]!r} is not w or b"
    return None


def chess_fen_problem(fen):
    """Why `fen` is not a legal chess position's FEN, or None (python-chess judges)."""
    import chess

    try:
        board = chess.Board(fen)
    except ValueError as e:
        return str(e)
    if not board.is_valid():
        return f"not a legal position ({board.status()!r})"
    return None


def elo_expectation(kind, value):
    """The side to move's expected score by the Elo logistic; a mate is 1 or 0."""
    if kind == "mate":
        return 1.0 if value > 0 else 0.0
    return 1.0 / (1.0 + 10.0 ** (-value / SCALE))


def wdl_expectation(kind, value, fen):
    """The side to move's expected score by Stockfish 15.1's win/draw/loss model."""
    import chess
    import chess.engine

    score = chess.engine.Mate(value) if kind == "mate" else chess.engine.Cp(value)
    return score.wdl(model="sf15.1", ply=chess.Board(fen).ply()).expectation()


def label(job):
    """Labels one chunk: ([lines], [messages]), or (None, [messages]) whose last
    names the line the engine failed on."""
    game, numbered, depth, model = job
    program, options, _ = GAMES[game]
    fen_problem = chess_fen_problem if game == "chess" else xiangqi_fen_problem
    out, messages = [], []
    engine = None
    try:
        engine = Engine(program, options)
        for number, fen in numbered:
            problem = fen_problem(fen)
            if problem:
                messages.append(f"line {number}: skipped, not a {game} FEN ({problem}): {fen!r}")
                continue
            try:
                kind, value = engine.score(fen, depth)
            except EngineError as e:
                raise EngineError(f"line {number} ({fen}): {e}") from None
            if model == "wdl":
                mover = wdl_expectation(kind, value, fen)
            else:
                mover = elo_expectation(kind, value)
            first_to_move = fen.split()[1] == "w"
            out.append(f"{fen};{mover if first_to_move else 1.0 - mover:.4f}")
    except EngineError as e:
        return None, messages + [str(e)]
    finally:
        if engine is not None:
            engine.close()
    return out, messages


def label_file(game, source, target, depth, processes, model="elo"):
    """Writes `FEN;p` lines to `target` for the `FEN;…` lines of `source`, in order:
    p is the first player's (White's, red's) expected score."""
    if depth < 1 or processes < 1:
        sys.exit("DEPTH and PROCESSES must be at least 1")
    try:
        with open(source) as f:
            numbered = [
                (n, line.split(";", 1)[0].strip())
                for n, line in enumerate(f, start=1)
                if line.strip()
            ]
    except OSError as e:
        sys.exit(f"{source}: {e}")
    chunk = GAMES[game][2]
    jobs = [(game, numbered[i : i + chunk], depth, model) for i in range(0, len(numbered), chunk)]
    done = 0
    start = time.monotonic()
    with multiprocessing.Pool(processes) as pool, open(target, "w") as out:
        for labelled, messages in pool.imap(label, jobs):
            for message in messages[:-1] if labelled is None else messages:
                print(message, file=sys.stderr)
            if labelled is None:
                pool.terminate()
                sys.exit(f"error: {messages[-1]}")
            if labelled:
                out.write("\n".join(labelled) + "\n")
                out.flush()
            done += len(labelled)
            minutes = (time.monotonic() - start) / 60
            print(
                f"{done}/{len(numbered)} ({done / max(minutes, 1e-9):.0f} a minute)",
                file=sys.stderr,
                flush=True,
            )
