"""Which command ``./run ARGS`` starts, and which extras it installs, decided
before anything is installed.

``./run`` runs this file with the system ``python3`` (standard library only, the
package not imported: the environment may not exist yet)::

    python3 src/burraco/cli/route.py ARGS ...

It prints one line, ``EXTRAS PREFIX ...``: the extras to install (``-`` for none)
and the words to put before ``ARGS`` (none when ARGS name a command).  A command
or option the command line does not know, or a value outside an option's choices,
is refused with one line on standard error and exit 2, so that ``./run
nosuchcommand`` installs nothing.

- no ARGS: the browser table, ``serve --open``;
- only options: ``serve --open`` when ``serve`` takes every one of them
  (``./run --port 8137``), else ``play`` when ``play`` does
  (``./run --variant brazilian``); options of both, or of neither, are refused.

The options are those of :data:`TABLE`, ``options.json`` beside this file: the
real parser (:func:`burraco.cli.main.build_parser`, built with every extra
installed) written out by :func:`write_table`
(``python -c 'from burraco.cli import main, route;
route.write_table(main.build_parser())'``); ``tests/test_cli_route.py``
checks that it is current.  Value types beyond whole numbers and numbers, and
everything the commands check when they run, are left to the real parser.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from typing import Any, Dict, List, Mapping, NoReturn, Optional, Sequence, Tuple

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "options.json")
"""The command line's commands and options, as :func:`describe` writes them."""

MIN_PYTHON = (3, 10)
"""The oldest Python burraco runs on (``requires-python`` of pyproject.toml)."""

EXTRAS = {"play": "ui", "serve": "server", "tournament": "tournament,server"}
"""The extras each command needs (the others: none; ``arena --plot``: plot)."""

# argparse actions that take no value
_FLAGS = ("_StoreTrueAction", "_StoreFalseAction", "_StoreConstAction", "_AppendConstAction",
          "_CountAction", "_HelpAction", "_VersionAction", "BooleanOptionalAction")
_NEGATIVE = re.compile(r"^-\d+$|^-\d*\.\d+$")


class Refused(Exception):
    """ARGS the command line would refuse: ``prog`` and the one-line reason."""

    def __init__(self, prog: str, message: str) -> None:
        super().__init__(message)
        self.prog = prog
        self.message = message

    def line(self) -> str:
        """The line printed on standard error, in the form of the real parser's."""
        text = " ".join(self.message.split())
        return f"{self.prog}: error: {text} (see {self.prog} --help)"


class _Parser(argparse.ArgumentParser):
    """A parser that raises :class:`Refused` instead of printing and exiting."""

    def error(self, message: str) -> NoReturn:
        raise Refused(self.prog, message)


def run_prog(env: Mapping[str, str], cwd: Optional[str] = None) -> Optional[str]:
    """How the person started the command line when ``./run`` did (it exports
    ``BURRACO_RUN``, its own path): ``./run`` from the script's folder, else the
    script's path; None when ``./run`` did not start it."""
    run = env.get("BURRACO_RUN")
    if not run:
        return None
    try:
        here = os.path.realpath(cwd if cwd is not None else os.getcwd())
    except OSError:
        return run
    return "./run" if os.path.realpath(os.path.dirname(run)) == here else run


# ------------------------------------------------------------------ the table
def _action(a: argparse.Action) -> Dict[str, Any]:
    kind = type(a).__name__
    flag = kind in _FLAGS or a.nargs == 0
    out: Dict[str, Any] = {"flags": list(a.option_strings), "dest": a.dest}
    if a.option_strings and flag:
        out["nargs"] = 0
    elif a.nargs is not None:
        out["nargs"] = a.nargs
    if a.metavar is not None and not isinstance(a.metavar, tuple):
        out["metavar"] = a.metavar
    if a.required and a.option_strings:
        out["required"] = True
    typ = "int" if a.type is int else "float" if a.type is float else None
    if typ:
        out["type"] = typ
    if a.choices is not None and not isinstance(a, argparse._SubParsersAction) \
            and (a.type is None or typ) \
            and all(isinstance(c, (str, int)) and not isinstance(c, bool) for c in a.choices):
        out["choices"] = list(a.choices)
    return out


def describe(parser: argparse.ArgumentParser) -> Dict[str, Any]:
    """A parser's options, arguments and commands (recursively), as JSON data."""
    actions: List[Dict[str, Any]] = []
    for a in parser._actions:
        if isinstance(a, argparse._SubParsersAction):
            actions.append({"commands": {name: describe(p) for name, p in a.choices.items()},
                            "dest": a.dest, "metavar": a.metavar,
                            "required": bool(a.required)})
        else:
            actions.append(_action(a))
    return {"actions": actions}


def write_table(parser: argparse.ArgumentParser, path: str = TABLE) -> None:
    """Write :data:`TABLE` from ``parser``: the real one
    (:func:`burraco.cli.main.build_parser`, with every extra installed), which
    this module does not import (it runs before the package is installed)."""
    text = json.dumps(describe(parser), separators=(",", ":"))
    with open(path, "w", encoding="utf-8") as f:
        f.write(text + "\n")


def load_table(path: str = TABLE) -> Dict[str, Any]:
    """The table :func:`write_table` wrote."""
    with open(path, encoding="utf-8") as f:
        data: Dict[str, Any] = json.load(f)
    return data


def build(spec: Mapping[str, Any], prog: str) -> argparse.ArgumentParser:
    """A parser with the options and commands of ``spec`` (no help, no types
    beyond ``int`` and ``float``) whose errors raise :class:`Refused`."""
    p = _Parser(prog=prog, add_help=False)
    for a in spec["actions"]:
        if "commands" in a:
            sub = p.add_subparsers(dest=a["dest"], metavar=a.get("metavar"),
                                   parser_class=_Parser)
            sub.required = bool(a.get("required"))
            for name, child in a["commands"].items():  # choices: the name -> parser map
                choices: Dict[str, Any] = sub.choices
                choices[name] = build(child, f"{prog} {name}")
            continue
        kw: Dict[str, Any] = {"dest": a["dest"]} if a["flags"] else {}
        if a.get("nargs") == 0:
            kw["action"] = "store_true"
        elif "nargs" in a:
            kw["nargs"] = a["nargs"]
        if "type" in a:
            kw["type"] = {"int": int, "float": float}[a["type"]]
        if "choices" in a:
            kw["choices"] = a["choices"]
        if a.get("required"):
            kw["required"] = True
        if a.get("metavar") is not None and a.get("nargs") != 0:
            kw["metavar"] = a["metavar"]
        if a["flags"]:
            p.add_argument(*a["flags"], **kw)
        else:
            p.add_argument(a["dest"], **kw)
    return p


# ------------------------------------------------------------------ routing
def _commands(spec: Mapping[str, Any]) -> Dict[str, Any]:
    for a in spec["actions"]:
        if "commands" in a:
            commands: Dict[str, Any] = a["commands"]
            return commands
    return {}


def _options(spec: Mapping[str, Any]) -> Dict[str, int]:
    """Option string -> 1 when it takes exactly one value, else 0."""
    return {f: int(a.get("nargs", None) is None) for a in spec["actions"] if "flags" in a
            for f in a["flags"]}


def _match(token: str, options: Mapping[str, int]) -> Optional[str]:
    """The option of ``options`` that ``token`` names (argparse's rules: exact,
    ``--name=value``, a unique prefix of a long option, ``-xVALUE``), or None."""
    name = token.split("=", 1)[0]
    if name in options:
        return name
    if name.startswith("--"):
        found = [o for o in options if o.startswith(name) and o.startswith("--")]
        return found[0] if len(found) == 1 else None
    if len(token) > 2 and token[:2] in options:
        return token[:2]
    return None


def option_words(argv: Sequence[str], *specs: Mapping[str, Any]) -> List[str]:
    """The words of ``argv`` that are option names (not values of the option before
    them, not negative numbers, nothing after ``--``), as the user typed them."""
    every: Dict[str, int] = {}
    for s in specs:
        every.update(_options(s))
    words: List[str] = []
    skip = False
    for tok in argv:
        if tok == "--":
            break
        if skip:
            skip = False
            continue
        if tok.startswith("-") and tok != "-" and not _NEGATIVE.match(tok):
            words.append(tok)
            opt = _match(tok, every)
            skip = bool(opt and every[opt] and "=" not in tok and tok == opt)
    return words


def parse(parser: argparse.ArgumentParser, argv: Sequence[str]) -> argparse.Namespace:
    """``parser.parse_args(argv)``, but words no command takes are refused by the
    command's own parser (``burraco play: error: unrecognized arguments: --port``,
    not ``burraco: error: ...``)."""
    ns, rest = parser.parse_known_args(list(argv))
    if rest:
        command = getattr(ns, "command", None)
        sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)),
                   None)
        owner = sub.choices.get(command, parser) if sub is not None and command else parser
        owner.error(f"unrecognized arguments: {' '.join(rest)}")
    return ns


def _extras(ns: argparse.Namespace) -> str:
    command = getattr(ns, "command", None)
    if command == "arena" and getattr(ns, "plot", None):
        return "plot"
    return EXTRAS.get(command or "", "")


def route(argv: Sequence[str], table: Mapping[str, Any], prog: str = "./run"
          ) -> Tuple[str, List[str]]:
    """``(extras, prefix)``: the extras ``./run ARGV`` installs and the words put
    before ARGV; raises :class:`Refused` for ARGV the command line would refuse."""
    top = build(table, prog)
    argv = list(argv)
    if not argv:
        return EXTRAS["serve"], ["serve", "--open"]
    if argv[0] in ("-h", "--help", "--version") or not argv[0].startswith("-"):
        return _extras(parse(top, argv)), []
    commands = _commands(table)
    serve, play = commands["serve"], commands["play"]
    words = option_words(argv, serve, play)
    in_serve = {w for w in words if _match(w, _options(serve))}
    in_play = {w for w in words if _match(w, _options(play))}
    unknown = [w for w in words if w not in in_serve and w not in in_play]
    if unknown:
        raise Refused(prog, f"unrecognized arguments: {' '.join(unknown)}: neither serve "
                            "(the browser table) nor play (the terminal game) takes "
                            f"{'it' if len(unknown) == 1 else 'them'}")
    for name, known, prefix in (("serve", in_serve, ["serve", "--open"]),
                                ("play", in_play, ["play"])):
        if set(words) <= known:
            ns = parse(top, [name, *argv])
            return _extras(ns), prefix
    only_serve = sorted(in_serve - in_play)
    only_play = sorted(in_play - in_serve)
    raise Refused(prog, f"serve (the browser table) takes {', '.join(only_serve)} and play "
                        f"(the terminal game) takes {', '.join(only_play)}: name the "
                        f"command, {prog} serve ... or {prog} play ...")


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Print ``EXTRAS PREFIX...`` for ``./run ARGV``, or refuse it (exit 2)."""
    args = list(sys.argv[1:] if argv is None else argv)
    prog = run_prog(os.environ) or "./run"
    if sys.version_info < MIN_PYTHON:
        print(f"{prog}: error: burraco needs Python {'.'.join(map(str, MIN_PYTHON))} or "
              f"newer; python3 is {sys.version.split()[0]}", file=sys.stderr)
        return 2
    try:
        extras, prefix = route(args, load_table(), prog)
    except Refused as e:
        print(e.line(), file=sys.stderr)
        return 2
    print(" ".join([extras or "-", *prefix]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
