"""Plays a trained policy as an engine in `referee match`, so that an agent meets the built-in
ladder and other engines under the referee's clocks:

    referee match --game pegs --engine level=2 \\
        --engine 'name=agent cmd="python -m referee.engine agents.py:policy"'
    referee match --game dvonn --engine random \\
        --engine 'name=mcts cmd="python -m referee.engine --openspiel bots.py:make_bot"'

`FILE.py:NAME` or `MODULE:NAME` names what to play:
- a PettingZoo policy (the default): `policy(observation, agent)` returns an action, given the
  observation `referee.pettingzoo` would give (`{"observation": tensor, "action_mask": mask}`, built
  from what the referee tells this seat, so in DOUBLE its own hand only) and the agent's name
  (`seat_0`, ...);
- with `--openspiel`, a maker of OpenSpiel bots: `make_bot(game, player)` returns a `pyspiel.Bot`
  for `pyspiel.load_game("referee_...")`'s game, whose `step(state)` is asked for each move. An
  OpenSpiel state holds every card, so this plays the perfect-information games only (DVONN,
  Double Dutch, Pegs, Wyx); DOUBLE takes a PettingZoo policy.

The engine answers whatever action it is given; the referee judges it like any engine's move.
"""

import argparse
import importlib
import importlib.util
import pathlib
import sys

import numpy as np

import referee


def load(spec):
    """The object `FILE.py:NAME` or `MODULE:NAME` names."""
    place, _, name = spec.rpartition(":")
    if not place or not name:
        raise SystemExit("referee.engine: %r is not FILE.py:NAME or MODULE:NAME" % spec)
    if place.endswith(".py"):
        path = pathlib.Path(place)
        found = importlib.util.spec_from_file_location(path.stem, path)
        if found is None or not path.is_file():
            raise SystemExit("referee.engine: no file %s" % place)
        module = importlib.util.module_from_spec(found)
        found.loader.exec_module(module)
    else:
        module = importlib.import_module(place)
    try:
        return getattr(module, name)
    except AttributeError:
        raise SystemExit("referee.engine: %s has no %s" % (place, name)) from None


class PolicyPlayer:
    """A seat played by a PettingZoo policy, from the seat's view."""

    def __init__(self, policy):
        self.policy = policy

    def start(self, view, newgame):
        self.view = view
        game = view.game()
        self.moves = game.move_space()[0]
        self.ids = {move: i for i, move in enumerate(self.moves)}
        self.shape = tuple(game.observation_shape())

    def told(self, seat, move):
        pass

    def choose(self):
        seat = self.view.seat
        game = self.view.game()
        tensor = np.asarray(game.observation(seat), dtype=np.float32).reshape(self.shape)
        mask = np.zeros(len(self.moves), dtype=np.int8)
        mask[[self.ids[move] for move in self.view.legal_moves()]] = 1
        action = self.policy({"observation": tensor, "action_mask": mask}, "seat_%d" % seat)
        return self.moves[int(action)]


class OpenSpielPlayer:
    """A seat played by an OpenSpiel bot, on an OpenSpiel state that follows the game."""

    def __init__(self, make_bot):
        import pyspiel

        import referee.openspiel  # noqa: F401 (registers the games)

        self.pyspiel = pyspiel
        self.make_bot = make_bot

    def start(self, view, newgame):
        from referee.openspiel import GAME_NAMES

        game_id, variant, seats, setup = newgame
        if game_id == "double":
            raise referee.RefereeError(
                "an OpenSpiel bot needs the whole state, and DOUBLE hides the hands: play a "
                "PettingZoo policy on the seat's observation instead")
        params = {}
        if game_id in ("pegs", "wyx"):
            params["variant"] = variant or ("standard" if game_id == "pegs" else "")
        if game_id == "double-dutch":
            params["seats"] = seats or 2
        self.game = self.pyspiel.load_game(GAME_NAMES[game_id], params)
        self.state = self.game.new_initial_state()
        self.state.draw_rack(setup)
        self.bot = self.make_bot(self.game, view.seat)

    def told(self, seat, move):
        action = self.state.string_to_action(seat, move)
        self.bot.inform_action(self.state, seat, action)
        self.state.apply_action(action)

    def choose(self):
        player = self.state.current_player()
        return self.state.action_to_string(player, self.bot.step(self.state))


def serve(player, name, lines=sys.stdin, out=sys.stdout):
    """Answers the referee's commands from `lines` on `out` until `quit`."""
    view = None
    for line in lines:
        words = line.split()
        if not words:
            continue
        ident, command, args = words[0], words[1], words[2:]
        answer, error = {"protocol_version": "2", "name": name, "version": "1"}.get(command, ""), None
        try:
            if command == "newgame":  # newgame GAME [VARIANT] key=value ...
                keys = dict(a.split("=", 1) for a in args[1:] if "=" in a)
                variant = next((a for a in args[1:2] if "=" not in a), None)
                seats = int(keys["seats"]) if "seats" in keys else None
                view = referee.SeatView(args[0].lower(), variant=variant, seats=seats,
                                        seat=int(keys.get("seat", 0)), setup=keys.get("setup"))
                player.start(view, (args[0].lower(), variant, seats, keys.get("setup")))
            elif command == "play":  # play SEAT MOVE (DOUBLE's moves hold spaces)
                seat = int(args[0])
                player.told(seat, view.follow(seat, " ".join(args[1:])))
            elif command == "event":  # DOUBLE's cards as this seat sees them, round scores
                view.follow(None, " ".join(args))
            elif command == "genmove":
                answer = player.choose()
            elif command not in ("protocol_version", "name", "version", "quit"):
                error = "unknown command"
        except (AttributeError, ValueError, KeyError, IndexError) as why:
            error = str(why).replace("\n", " ") or type(why).__name__
        print("?%s %s" % (ident, error) if error else ("=%s %s" % (ident, answer)).rstrip(),
              file=out, flush=True)
        print(file=out, flush=True)
        if command == "quit":
            return


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m referee.engine",
        description="Plays a PettingZoo policy, or an OpenSpiel bot, as an engine for `referee "
                    "match`.")
    parser.add_argument("target", metavar="FILE.py:NAME",
                        help="the policy(observation, agent) to play, or with --openspiel the "
                             "make_bot(game, player) that makes the OpenSpiel bot")
    parser.add_argument("--openspiel", action="store_true",
                        help="NAME makes OpenSpiel bots (perfect-information games only)")
    parser.add_argument("--name", help="the engine's name (default: NAME)")
    args = parser.parse_args(argv)
    target = load(args.target)
    player = OpenSpielPlayer(target) if args.openspiel else PolicyPlayer(target)
    serve(player, args.name or args.target.rpartition(":")[2])


if __name__ == "__main__":
    main()
