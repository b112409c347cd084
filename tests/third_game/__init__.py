"""A third game, Dice Duel, that lives in the tests and reaches the hub as a plug-in."""
