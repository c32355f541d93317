"""`referee.openspiel` against OpenSpiel's own checks, the referee binary's `validate`, and a seat
that must not learn another's cards. Skipped when OpenSpiel (`open_spiel`) is not installed.
Run from the repository: python -m pytest python/tests"""

import json
import random
import re
import unittest

import referee

try:
    import pyspiel

    import referee.openspiel  # noqa: F401 (registers the games)
except ImportError:
    pyspiel = None

from test_referee import NeedsBinary

# Every game and variant, as OpenSpiel loads it, with the referee's id, variant and seats.
GAMES = [
    ("referee_dvonn", {}, "dvonn", None, 2),
    ("referee_double_dutch", {"seats": 2}, "double-dutch", None, 2),
    ("referee_double_dutch", {"seats": 3}, "double-dutch", None, 3),
    ("referee_pegs", {"variant": "standard"}, "pegs", "standard", 2),
    ("referee_pegs", {"variant": "turbo"}, "pegs", "turbo", 2),
    ("referee_wyx", {"variant": ""}, "wyx", None, 2),
    ("referee_wyx", {"variant": "double"}, "wyx", "double", 2),
] + [("referee_double", {"seats": n}, "double", None, n) for n in range(2, 7)]

CARD = re.compile(r"c\d\d")


def seeded_playout(state, game_id, variant, seats, seed, rng):
    """Plays `state` to its end: seats at random, chance as the referee's seed `seed` draws it
    (Wyx's rack, DOUBLE's cards), so that `referee validate` can judge the result. Returns the
    plies as a record writes them (no seat for chance), and a game that followed them."""
    follower = referee.Game(game_id, variant=variant, seats=seats, seed=seed, explicit_chance=True)
    rack = follower.public_setup()
    dominoes = []
    if rack:
        columns = [column.split(",") for column in rack.split("/")]
        dominoes = [d for c in range(4) for d in columns[2 * c] + columns[2 * c + 1]]
    plies = []
    while not state.is_terminal():
        if state.is_chance_node():
            if dominoes:
                text = "rack " + dominoes.pop(0)
            else:
                text = follower.seeded_chance()
            action = state.string_to_action(pyspiel.PlayerId.CHANCE, text)
            if not text.startswith("rack "):
                follower.play(text)
                plies.append({"ply": len(plies), "move": text})
        else:
            seat = state.current_player()
            action = rng.choice(state.legal_actions())
            text = state.action_to_string(seat, action)
            follower.play(text)
            plies.append({"ply": len(plies), "seat": seat, "move": text})
        state.apply_action(action)
    return plies, follower


@unittest.skipUnless(pyspiel, "OpenSpiel is not installed (pip install open_spiel)")
class OpenSpiel(unittest.TestCase):
    def test_every_game_passes_openspiels_random_simulation_test(self):
        for name, params, *_ in GAMES:
            with self.subTest(name=name, params=params):
                game = pyspiel.load_game(name, params)
                pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)

    def test_the_game_types_say_what_each_game_is(self):
        for name, params, game_id, variant, seats in GAMES:
            game = pyspiel.load_game(name, params)
            kind = game.get_type()
            self.assertEqual(game.num_players(), seats)
            chance = game_id in ("wyx", "double")
            self.assertEqual(
                kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC, chance, name)
            self.assertEqual(
                kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION,
                game_id == "double", name)
            moves, _ = referee.Game(game_id, variant=variant, seats=seats).move_space()
            self.assertEqual(game.num_distinct_actions(), len(moves))
        with self.assertRaises(referee.SetupError):
            pyspiel.load_game("referee_double", {"seats": 7})

    def test_no_seat_is_told_or_shown_a_card_it_may_not_see(self):
        for seats in (2, 4, 6):
            game = pyspiel.load_game("referee_double", {"seats": seats})
            rng = random.Random(seats)
            for _ in range(3):
                state = game.new_initial_state()
                # The cards each seat may know: its own, and every card shown to all.
                known = [set() for _ in range(seats)]
                while not state.is_terminal():
                    for seat in range(seats):
                        for text in (state.information_state_string(seat),
                                     state.observation_string(seat)):
                            told = set(CARD.findall(text))
                            self.assertLessEqual(told, known[seat], (seat, told - known[seat]))
                        # The tensor's cards: the seat's hand, then the snake's two ends.
                        tensor = state.observation_tensor(seat)
                        shown = {"c%02d" % (i % 72 + 1) for i in range(3 * 72) if tensor[i]}
                        self.assertLessEqual(shown, known[seat], (seat, shown - known[seat]))
                    if state.is_chance_node():
                        outcomes, chances = zip(*state.chance_outcomes())
                        action = rng.choices(outcomes, chances)[0]
                        text = state.action_to_string(pyspiel.PlayerId.CHANCE, action)
                        words = text.split()
                        # `deal S CARD` and `draw S CARD` go to seat S; `start CARD` to all.
                        to = range(seats) if words[0] == "start" else [int(words[1])]
                    else:
                        action = rng.choice(state.legal_actions())
                        text = state.action_to_string(state.current_player(), action)
                        to = range(seats)
                    for seat in to:
                        known[seat] |= set(CARD.findall(text))
                    state.apply_action(action)
                # At the end each round's hands were shown, and everyone learned their points only.
                self.assertIn("event round", state.information_state_string(0))

    def test_the_readmes_openspiel_example_runs(self):
        import contextlib
        import io
        import pathlib

        readme = pathlib.Path(__file__).resolve().parents[1] / "README.md"
        blocks = re.findall(r"```python openspiel\n(.*?)```", readme.read_text(), re.S)
        self.assertTrue(blocks)
        for block in blocks:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(block, str(readme), "exec"), {})

    def test_utilities_follow_the_result(self):
        game = pyspiel.load_game("referee_double_dutch", {"seats": 3})
        rng = random.Random(1)
        for _ in range(10):
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
            returns = state.returns()
            self.assertAlmostEqual(sum(returns), 0.0)
            self.assertEqual(sorted(returns), [-0.5, -0.5, 1.0])


@unittest.skipUnless(pyspiel, "OpenSpiel is not installed (pip install open_spiel)")
class OpenSpielAgainstTheBinary(NeedsBinary, unittest.TestCase):
    def test_two_hundred_games_played_through_openspiel_are_valid_records(self):
        binary = self.binary()
        rng = random.Random(5)
        lines = []
        for number in range(200):
            name, params, game_id, variant, seats = GAMES[number % len(GAMES)]
            game = pyspiel.load_game(name, params)
            state = game.new_initial_state()
            plies, follower = seeded_playout(state, game_id, variant, seats, number, rng)
            winners = [s for s, r in enumerate(state.returns()) if r > 0] or list(range(seats))
            self.assertEqual(sorted(winners), sorted(follower.winners()), name)
            # The record's plies are the ones played through OpenSpiel, each with its seat.
            self.assertEqual(json.loads(follower.record())["moves"], plies, name)
            names = ["s%d" % i for i in range(seats)]
            lines.append(follower.record(names=names, tags={"game": str(number + 1)}))
        self.assert_valid_records(lines)


if __name__ == "__main__":
    unittest.main()
