"""The pure rules engine of Popcorn: no I/O, no clock, no imports from the rest of the project.

Start with :class:`~companion.engine.state.GameState`: build one with
:func:`~companion.engine.setup.new_game`, ask it for :meth:`legal_moves` or
:meth:`chance_outcomes`, and :meth:`apply` a :class:`~companion.engine.moves.Move`.
"""
