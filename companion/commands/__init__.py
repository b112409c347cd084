"""Subcommands of ``popcorn-companion``: each module offers ``register(subparsers)``.

``register`` adds the subcommand's parser and sets ``func`` to a callable that takes the parsed
arguments and returns the process exit status.
"""
