"""The review of the hand just played (``r`` on the end-of-hand page; issue 28).

:class:`ReviewScreen` runs :func:`burraco.review.review_hand` for the person's
seat on a worker thread (the screen keeps answering; the count of decisions
reviewed shows meanwhile) and then lists each decision: the turn, the move
played, the verdict in words and colour, the points it lost with their noise,
and the better move.  The same review as ``burraco review RECORD --seat N``.
A review is kept for the hand (asked again, shown at once); closing the page
while it works stops it.  Words through the shared catalogue (msgctxt
``review``).  Fits 80×24: the list scrolls inside the page.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple, Union

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..cards import parse_card
from ..i18n import KeyedWords
from ..review import review_hand
from ..variants import parse_variant
from .cards import cards_plain

REVIEW_WORDS: Dict[str, Union[str, Tuple[str, str]]] = {
    "title": "Review of hand {n}: your decisions",
    "working": "The search is weighing your decisions: {done} of {total}…",
    "starting": "The search is starting…",
    "keys": "↑/↓ scroll · Esc or r: back",
    "legend": "Each move is played out to the end of the hand on deals sampled from what "
              "you could see. Points lost: the best move found less yours (± the noise).",
    "turn": "Turn {n}",
    "draw": "draw from the stock",
    "redraw": "throw the drawn card back and draw again",
    "pickup": "pick up the discard pile",
    "pickup_with": "pick up the discard pile with {cards}",
    "pickup_onto": "pick up the discard pile onto {meld}",
    "meld": "meld {cards}",
    "add": "add {cards} to {meld}",
    "discard": "discard {card}",
    "and_close": "{move} and close",
    "and_packet": "{move} and take the reserve packet",
    "good": "good",
    "inaccuracy": "inaccuracy",
    "mistake": "mistake",
    "blunder": "blunder",
    "unclear": "unclear",
    "better": "better: {move}",
    "only_move": "the only move",
    "summary": "Good {good} · inaccuracies {inaccuracy} · mistakes {mistake} · "
               "blunders {blunder} · unclear {unclear} · points lost {loss}",
    "none": "You made no move in this hand.",
    "failed": "The review failed: {error}",
}
"""The review page's words: key -> English msgid (msgctxt ``review``)."""

VERDICT_STYLES = {"good": "green", "inaccuracy": "yellow", "mistake": "dark_orange",
                  "blunder": "bold red", "unclear": "grey62"}
"""Each verdict's colour (the verdict is always written too)."""


class ReviewWords(KeyedWords):
    """The review page's words (:data:`REVIEW_WORDS`) in one language."""

    WORDS = REVIEW_WORDS
    CONTEXT = "review"


class _Stopped(Exception):
    """The page was closed while the review worked."""


def meld_name(view: Mapping[str, Any], melds_per: str, i: int) -> str:
    """A meld of the seat's side (or its own) by its cards, as the view lists them."""
    seat = view["seat"]
    owner = seat if melds_per == "player" else view["side_of"][seat]
    melds = view["melds"][owner] if owner < len(view["melds"]) else []
    if 0 <= i < len(melds):
        return cards_plain([parse_card(c) for c in melds[i]["cards"]])
    return f"#{i + 1}"


def say_move(words: ReviewWords, move: Mapping[str, Any], kind: str,
             view: Mapping[str, Any], melds_per: str) -> str:
    """A record's move entry in the page's language (``kind``: the review's kind,
    which says whether it closes or takes the packet)."""
    a = move.get("action")
    cards = cards_plain(sorted(parse_card(c) for c in move.get("cards", [])))
    if a == "draw":
        text = words("draw")
    elif a == "redraw":
        text = words("redraw")
    elif a == "pickup":
        if move.get("cards"):
            text = words("pickup_with", cards=cards)
        elif "meld" in move:
            text = words("pickup_onto", meld=meld_name(view, melds_per, move["meld"]))
        else:
            text = words("pickup")
    elif a == "meld":
        text = words("meld", cards=cards)
    elif a == "add":
        text = words("add", cards=cards, meld=meld_name(view, melds_per, move["meld"]))
    elif a == "discard":
        text = words("discard", card=cards_plain([parse_card(move["card"])]))
    else:
        text = str(a)
    if kind == "packet":
        text = words("and_packet", move=text)
    elif kind == "close":
        text = words("and_close", move=text)
    return text


def review_text(review: Mapping[str, Any], words: ReviewWords) -> Text:
    """The review as the page shows it: a legend, then per decision a line (turn,
    move played, verdict, points lost) and, where a better move was found, a
    line naming it; then the summary."""
    melds_per = parse_variant(review["variant"]).melds_per
    out = Text()
    out.append(words("legend") + "\n", style="italic")
    if not review["decisions"]:
        out.append("\n" + words("none"))
        return out
    last_turn = None
    for d in review["decisions"]:
        view = d["view"]
        if d["turn"] != last_turn:
            out.append("\n" + words("turn", n=d["turn"]) + "\n", style="bold")
            last_turn = d["turn"]
        played = say_move(words, d["played"], d["kind"], view, melds_per)
        out.append(f"  {played}  ")
        out.append(words(d["verdict"]), style=VERDICT_STYLES[d["verdict"]])
        if not d["samples"]:
            out.append(f" ({words('only_move')})", style="dim")
        elif d["best"] != d["played"]:
            out.append(f"  -{d['loss']:.0f} ±{d['se']:.0f}")
            best = say_move(words, d["best"], d.get("best_kind", d["kind"]), view, melds_per)
            out.append("\n    " + words("better", move=best), style="dim")
        out.append("\n")
    s = review["summary"]
    out.append("\n" + words("summary", good=s["good"], inaccuracy=s["inaccuracy"],
                                mistake=s["mistake"], blunder=s["blunder"],
                                unclear=s["unclear"], loss=f"{s['loss']:.0f}"), style="bold")
    return out


Runner = Callable[..., Dict[str, Any]]


class ReviewScreen(ModalScreen[None]):
    """The review page (see the module docstring).  ``record``: the finished hand's
    record; ``seat``: the person's; ``budget``: :func:`review_hand`'s ``sims`` or
    ``time``; ``cache``: where the review of this hand is kept once made."""

    BINDINGS = [("escape,q,r", "close", "Back")]
    DEFAULT_CSS = """
    ReviewScreen { align: center middle; }
    ReviewScreen > VerticalScroll { width: 100%; max-width: 110; height: 100%;
                                    border: round $accent; background: $surface;
                                    padding: 0 1; }
    """

    def __init__(self, record: Dict[str, Any], seat: int, hand_no: int, lang: str,
                 budget: Optional[Dict[str, Any]] = None,
                 cache: Optional[Dict[Any, Dict[str, Any]]] = None,
                 run: Runner = review_hand) -> None:
        super().__init__()
        self.record = record
        self.seat = seat
        self.hand_no = hand_no
        self.words = ReviewWords(lang)
        self.budget = dict(budget or {})
        self.cache = cache if cache is not None else {}
        self.key = (hand_no, seat, len(record.get("moves", [])))
        self.run = run
        self.stopped = False
        self.review: Optional[Dict[str, Any]] = self.cache.get(self.key)

    def compose(self) -> ComposeResult:
        """The page: a scrolling box titled with the hand, the keys below."""
        with VerticalScroll() as vs:
            vs.border_title = self.words("title", n=self.hand_no)
            vs.border_subtitle = self.words("keys")
            yield Static(self.words("starting"), id="review-body", markup=False)

    def on_mount(self) -> None:
        """Show the review kept for this hand, else start it on a worker thread."""
        self.query_one(VerticalScroll).focus()
        if self.review is not None:
            self.show(self.review)
            return
        record, seat, budget = self.record, self.seat, self.budget

        def progress(done: int, total: int) -> None:
            if self.stopped:
                raise _Stopped
            self._from_thread(self.working, done, total)

        def work() -> None:
            try:
                review = self.run(record, seat, progress=progress, **budget)
            except _Stopped:
                return
            except Exception as e:  # shown on the page, never a crash of the game
                self._from_thread(self.failed, str(e) or type(e).__name__)
                return
            self._from_thread(self.done, review)

        self.run_worker(work, thread=True, group="review", exit_on_error=False)

    def _from_thread(self, fn: Callable[..., None], *args: Any) -> None:
        try:
            self.app.call_from_thread(fn, *args)
        except RuntimeError:  # the app has closed meanwhile
            pass

    def working(self, done: int, total: int) -> None:
        """The count of decisions reviewed so far."""
        if not self.stopped:
            self.query_one("#review-body", Static).update(
                self.words("working", done=done, total=total))

    def done(self, review: Dict[str, Any]) -> None:
        """The review is made: keep it for this hand and show it."""
        self.cache[self.key] = review
        self.review = review
        if not self.stopped:
            self.show(review)

    def failed(self, error: str) -> None:
        """The review could not be made (the page says why)."""
        if not self.stopped:
            self.query_one("#review-body", Static).update(self.words("failed", error=error))

    def show(self, review: Mapping[str, Any]) -> None:
        """Draw the review."""
        self.query_one("#review-body", Static).update(review_text(review, self.words))

    def action_close(self) -> None:
        """Back to the end of the hand (a review still working stops)."""
        self.stopped = True
        self.dismiss(None)


def open_review(app: Any) -> None:
    """Push the review of the hand just finished for the person at ``app``'s
    table (``app.review_budget``, when set, is the budget: tests use a few
    samples; else the review's default time a decision)."""
    from ..record import to_record

    tb = app.table
    if tb.state is None or not tb.state.history:
        return
    cache = app.__dict__.setdefault("_reviews", {})
    budget = getattr(app, "review_budget", None)
    app.push_screen(ReviewScreen(to_record(tb.state), tb.seat, tb.hand_no, app.lang,
                                 budget=budget, cache=cache))


__all__ = ["REVIEW_WORDS", "VERDICT_STYLES", "ReviewWords", "ReviewScreen", "open_review",
           "review_text", "say_move", "meld_name"]
