"""The table behind the terminal app, without any user interface.

A :class:`Table` holds a :class:`~burraco.match.Match` between one person (the
seat ``seat``) and bots, deals hand after hand, lets the person move, lets each
bot choose its move from its own :class:`~burraco.state.PlayerView` (never the
full state), scores finished hands and saves the record of every hand
(RECORD.md) in a folder the person can find.  The Textual app in
:mod:`burraco.tui.app` only draws this object and forwards keys and clicks.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..bots import Bot, make_bot
from ..match import Match
from ..record import dumps, to_record
from ..state import DIRECTOR, GameState, IllegalMove, Move, PlayerView
from ..variants import Variant, parse_variant


def default_bot() -> str:
    """``greedy`` when a greedy bot is registered, else ``random``."""
    try:
        make_bot("greedy", seed=0)
    except ValueError:
        return "random"
    return "greedy"


def records_dir(environ: Optional[Dict[str, str]] = None) -> Path:
    """Where hand records go by default: ``$XDG_DATA_HOME/burraco/records``, or
    ``~/.local/share/burraco/records`` when ``XDG_DATA_HOME`` is unset."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "burraco" / "records"


def clock_seconds(variant: Variant) -> int:
    """Seconds a hand has before the tournament time-out (0 = no clock): the
    variant's minutes a hand, or its first round's minutes shared out over the
    round's hands (RULES.md Tournament: the federation times rounds)."""
    if variant.time_out_minutes:
        return variant.time_out_minutes * 60
    if variant.round_minutes:
        hands, minutes = variant.round_minutes[0]
        return minutes * 60 // max(1, hands)
    return 0


def user_command(environ: Optional[Dict[str, str]] = None, cwd: Optional[str] = None) -> str:
    """How the person runs ``burraco`` from their own shell: ``./run`` (or the
    script's path) when the game was started by the repository's ``./run``
    (which sets ``BURRACO_RUN``; ``burraco`` is then not on PATH), ``burraco``
    when that is on PATH, else ``python -m burraco`` with this interpreter."""
    env = os.environ if environ is None else environ
    run = env.get("BURRACO_RUN")
    if run:
        here = os.path.abspath(cwd or os.getcwd())
        if os.path.dirname(os.path.abspath(run)) == here:
            return "./run"
        return shlex.quote(run)
    if shutil.which("burraco", path=env.get("PATH")):
        return "burraco"
    return f"{shlex.quote(sys.executable)} -m burraco"


def shell_path(path: "Path | str", environ: Optional[Dict[str, str]] = None,
               cwd: Optional[str] = None) -> str:
    """``path`` as short as the person's shell reads it: relative to ``cwd``
    when it lies below it, ``~/...`` when it lies below the home folder
    (``HOME``), else whole; quoted where the shell needs it."""
    env = os.environ if environ is None else environ
    full = os.path.abspath(str(path))
    here = os.path.abspath(cwd or os.getcwd())
    home = env.get("HOME")
    if full.startswith(here.rstrip("/") + "/"):
        return shlex.quote(os.path.relpath(full, here))
    if home and home != "/" and full.startswith(home.rstrip("/") + "/"):
        return "~/" + shlex.quote(full[len(home.rstrip("/")) + 1:])
    return shlex.quote(full)


def replay_command(path: "Path | str", environ: Optional[Dict[str, str]] = None,
                   cwd: Optional[str] = None) -> str:
    """The command that checks the record at ``path`` from the person's shell
    (the path as short as :func:`shell_path` makes it)."""
    return f"{user_command(environ, cwd)} replay {shell_path(path, environ, cwd)}"


class NotYourTurn(Exception):
    """The person tried to move while a bot is to move (or the hand is over)."""


class Table:
    """A match between one person at ``seat`` and bots at the other seats.

    ``bots`` lists bot specs for the other seats in seat order (the last one is
    repeated when the list is short).  ``first_state`` replaces the first
    hand's deal (tests use it for a favourable deal).  ``records`` is the folder
    for hand records (created when the first record is saved).
    """

    def __init__(self, variant: "Variant | str", players: int, seat: int = 0,
                 bots: Sequence[str] = ("random",), target: Optional[int] = None,
                 seed: Optional[int] = None, records: "Path | str | None" = None,
                 first_state: Optional[GameState] = None, first: int = 0) -> None:
        self.variant = parse_variant(variant)
        self.variant.check_players(players)
        if not 0 <= seat < players:
            raise ValueError(f"--seat must be a seat from 0 to {players - 1}, not {seat}")
        self.players = players
        self.seat = seat
        self.seed = seed
        self.match = Match(self.variant, players, seed=seed, first=first, target=target)
        specs = list(bots) or [default_bot()]
        self.bot_spec_list: List[str] = list(specs)
        self.clock_limit = clock_seconds(self.variant)
        self.bots: Dict[int, Bot] = {}
        self.bot_specs: Dict[int, str] = {}
        others = [p for p in range(players) if p != seat]
        for i, p in enumerate(others):
            spec = specs[min(i, len(specs) - 1)]
            base = 0 if seed is None else seed
            self.bots[p] = make_bot(spec, seed=base * 1000 + p)
            self.bot_specs[p] = spec.partition(":")[0]
        self.records_dir = Path(records) if records is not None else records_dir()
        # the date and time only: with the default records folder the command that
        # checks a hand, ``./run replay ~/.local/share/burraco/records/NAME``, fits
        # one line of the end-of-hand page at 80 columns (the record names its variant)
        self.match_id = time.strftime("%Y%m%d-%H%M%S")
        self._first_state = first_state
        self.state: Optional[GameState] = None
        self.saved: List[Path] = []
        self.last_scores: Optional[List[int]] = None
        self.hand_recorded = False
        self.hand_order = "suit"
        """The order the person sorts the hand in (``suit`` or ``rank``), kept in
        the saved match so ``--resume`` shows the hand as it was left."""

    # ------------------------------------------------------------ hands
    def new_hand(self) -> GameState:
        """Deal the next hand (the prepared first deal, if any, for hand 1)."""
        if self._first_state is not None and self.match.hand_number == 0:
            self.state = self._first_state
            self._first_state = None
        else:
            self.state = self.match.new_hand()
        self.hand_recorded = False
        return self.state

    @property
    def hand_state(self) -> GameState:
        """The hand being played (or just finished); a :class:`RuntimeError`
        before the first deal (:meth:`new_hand`)."""
        if self.state is None:
            raise RuntimeError("no hand has been dealt at this table yet")
        return self.state

    @property
    def hand_no(self) -> int:
        """The number of the hand being played (1 for the first)."""
        return self.match.hand_number + (0 if self.hand_recorded else 1)

    def view(self) -> PlayerView:
        """What the person may see now."""
        return self.hand_state.view(self.seat)

    @property
    def human_to_move(self) -> bool:
        """True when the person is to move in a hand still going on."""
        s = self.state
        return s is not None and not s.is_over and s.turn == self.seat

    def play(self, move: Move) -> None:
        """Make the person's ``move``; raises :class:`NotYourTurn`, or
        :class:`~burraco.state.IllegalMove` (the state is then unchanged)."""
        if not self.human_to_move:
            raise NotYourTurn()
        self.hand_state.play(move)

    def bot_step(self) -> Tuple[int, Move, bool]:
        """Let the bot to move make one move, chosen from its own view only.

        Returns ``(seat, move, fallback)``; ``fallback`` is True when the bot
        offered an illegal move and the first legal move was played instead."""
        seat = self.hand_state.turn
        view = self.hand_state.view(seat)
        move = self.bots[seat].choose(view)
        played, fallback = self.play_bot_move(seat, view, move)
        return seat, played, fallback

    QUICK_BOTS = frozenset({"random", "greedy"})
    """Bots that choose a move in a few milliseconds; every other bot (``search``,
    and any bot registered later) may think for seconds, and the app lets it
    think off the screen's thread (:meth:`thinks_long`)."""

    def thinks_long(self, seat: int) -> bool:
        """True when the bot at ``seat`` may take long over a move (see :data:`QUICK_BOTS`)."""
        return self.bot_specs.get(seat, "") not in self.QUICK_BOTS

    def play_bot_move(self, seat: int, view: PlayerView,
                      move: Optional[Move]) -> Tuple[Move, bool]:
        """Play ``move``, chosen by the bot at ``seat`` from ``view`` (its view
        when it was asked; nothing has moved since).  An illegal move, or none
        (the bot failed), is replaced by the first legal move.  Returns the move
        played and whether it was replaced."""
        s = self.hand_state
        if s.turn != seat or s.is_over:
            raise NotYourTurn()
        if move is not None:
            try:
                s.play(move)
                return move, False
            except IllegalMove:
                pass
        move = view.legal[0]
        s.play(move)
        return move, True

    @property
    def time_called(self) -> bool:
        """True once the tournament time-out has been called in this hand."""
        return self.state is not None and any(p == DIRECTOR for p, _ in self.hand_state.history)

    def call_time(self) -> None:
        """Call the tournament time-out (the clock ran out): see
        :meth:`GameState.call_time <burraco.state.GameState.call_time>`."""
        self.hand_state.call_time()

    def finish_hand(self) -> Tuple[List[int], Path]:
        """Score the finished hand into the match and save its record; returns
        the hand's scores per side (as ``burraco replay`` prints them) and the path."""
        self.match.record_hand(self.hand_state)
        scores = self.hand_state.scores()
        self.hand_recorded = True
        self.last_scores = scores
        path = self.save_record()
        return scores, path

    def record_path(self, hand: Optional[int] = None) -> Path:
        """The file of hand number ``hand`` (default: the current one)."""
        n = self.hand_no if hand is None else hand
        return self.records_dir / f"{self.match_id}-hand{n:02d}.json"

    def save_record(self) -> Path:
        """Write the current hand's record (finished or not) and return its path."""
        path = self.record_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dumps(to_record(self.hand_state)) + "\n", encoding="utf-8")
        if path not in self.saved:
            self.saved.append(path)
        return path

    # ------------------------------------------------------------ queries
    def side_seats(self, side: int) -> List[int]:
        """The seats of ``side`` in the current hand."""
        return [p for p in range(self.players) if self.hand_state.side_of[p] == side]

    @property
    def my_side(self) -> int:
        """The person's side in the current hand."""
        return self.hand_state.side_of[self.seat]


def load_json(path: "Path | str") -> Dict[str, Any]:
    """Read a saved record (a helper for tests and tools)."""
    data: Dict[str, Any] = json.loads(Path(path).read_text(encoding="utf-8"))
    return data


__all__ = ["Table", "NotYourTurn", "default_bot", "records_dir", "load_json", "user_command",
           "replay_command", "shell_path", "clock_seconds"]
