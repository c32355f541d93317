"""The exact rules of DVONN, Double Dutch, Pegs, Wyx and DOUBLE: the referee's own Rust rules.

`referee.openspiel` registers the games with OpenSpiel; it needs OpenSpiel installed
(`pip install "./python[openspiel]"`)."""

from ._referee import *  # noqa: F401,F403
