"""What the ``burraco tournament`` steps share: opening the database, the
event's name, and the guard that turns a refusal into one line."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

from ..tournament.model import AlreadyDone, TournamentError
from .common import check_output_file, check_records_dir, fail

if TYPE_CHECKING:   # the store needs the tournament extra (SQLAlchemy): imported when used
    from ..tournament.store import Store


def _store(args: Any, create: bool = False) -> "Store":
    """The database of ``--db`` (or ``BURRACO_DB``, or the default file).  Only
    ``create`` makes one: any other step refuses a database that is not there
    ("no tournament database at PATH") and makes no folder or file."""
    try:
        from ..tournament.store import Store
    except ImportError:
        raise TournamentError("the tournament database needs the tournament extra: "
                              "pip install 'burraco[tournament]'") from None
    return Store(getattr(args, "db", None), create=create)


def _event(args: Any) -> Optional[str]:
    return getattr(args, "event", None)


def check_outputs(args: Any) -> Optional[str]:
    """None if every file a step writes (``--html``, ``--csv``, ``export``'s folder)
    can be written (a probe written and removed), else the reason; checked before
    the step does anything."""
    for option in ("html", "csv"):
        path = getattr(args, option, None)
        if isinstance(path, str) and path != "-":
            problem = check_output_file(path, f"--{option}")
            if problem:
                return problem
    if getattr(args, "step", None) == "export":
        return check_records_dir(args.dir, "export DIR")
    return None


def guarded(func: Callable[[Any], Any]) -> Callable[[Any], int]:
    """Check the step's output files first; turn TournamentError into one line on
    standard error and exit code 2 (1 when the database is not there).  A step
    already done (:class:`AlreadyDone`: the command repeated after an
    interruption) is said on standard output and succeeds."""
    def inner(args: Any) -> int:
        problem = check_outputs(args)
        if problem:
            return fail(problem)
        try:
            return int(func(args) or 0)
        except AlreadyDone as e:
            print(f"already done: {e}")
            return 0
        except TournamentError as e:
            return fail(str(e), 1 if str(e).startswith("no tournament database at") else 2)
    inner.__doc__ = func.__doc__
    return inner
