"""The ``burraco`` command line: ``replay``, ``simulate``, ``variants`` and the
commands other packages add (``arena``, ``play``).  Each command is a module of
this package with ``register(subparsers)``; see :mod:`burraco.cli.main`."""
