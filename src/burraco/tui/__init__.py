"""``burraco play``: a full-screen terminal table (Textual) against bots.

:mod:`.game` holds the table without any user interface, :mod:`.i18n` its
words (looked up in the shared gettext catalogue :mod:`burraco.i18n`: English,
Italian, Brazilian Portuguese, German), :mod:`.refusals` the sentences of
refused moves,
:mod:`.rules_text` the rules summary generated from a variant's switches, and
:mod:`.app` the Textual app.  Importing this package does not import Textual;
import :mod:`burraco.tui.app` for the app.
"""

from .game import Table, default_bot, records_dir
from .i18n import LANGS, Translator, detect_lang, explain

__all__ = ["Table", "default_bot", "records_dir", "LANGS", "Translator", "detect_lang",
           "explain"]
