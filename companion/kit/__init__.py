"""What every layer and every game shares, and nothing else of the project.

The kit sits at the bottom of the import order: the readers, the table, the hub, the
commands and each game may import it, and it imports none of them. It holds the game
interface (:mod:`.game`), the alerts a tap may raise (:mod:`.alerts`), the refusal every
request and table input may answer (:mod:`.errors`), what every game's records share
(:mod:`.records`) and the charts a game gives its replay board (:mod:`.charts`).
"""
