"""Bots that play a seat, and `moderator simulate`: a whole war played end to end.

* `options.py` - what each order type's home allows a nation in a position: candidate
  orders proposed from the position, kept only if the home's own problem() allows them
  (the way godip's order types list their options). One table, OPTIONS, order type ->
  proposer, so a new order kind is one function and one line.
* `bot.py` - a deterministic player: a table of plays (defend, attack with good odds,
  build, research, influence, incorporate, ...) choosing among those options, and
  writing its orders as TEXT in the players' language.
* `simulate.py` - a game of the 1914 scenario with a bot on every seat, played for N
  turns in process (direct) or through the embedded mail server and the real daemon
  (--mail), and the summary a moderator reads before opening a real game.
"""
