"""The exact rules of DVONN, Double Dutch, Pegs, Wyx and DOUBLE: the referee's own Rust rules.

`referee.openspiel` registers the games with OpenSpiel and `referee.pettingzoo` makes PettingZoo
environments of them; each needs its toolkit installed (`pip install "./python[openspiel]"`)."""

from ._referee import *  # noqa: F401,F403
