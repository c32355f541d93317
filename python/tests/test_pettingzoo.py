"""`referee.pettingzoo` against PettingZoo's own API test, the referee binary's `validate`, and a
seat that must not learn another's cards. Skipped when PettingZoo is not installed.
Run from the repository: python -m pytest python/tests"""

import random
import unittest
import warnings

import numpy as np

import referee

try:
    from pettingzoo.test import api_test

    from referee.pettingzoo import env
except ImportError:
    env = None

from test_referee import NeedsBinary, follow_told

# Every game and variant: the referee's id, variant and seats.
GAMES = [
    ("dvonn", None, 2),
    ("double-dutch", None, 2),
    ("double-dutch", None, 3),
    ("pegs", "standard", 2),
    ("pegs", "turbo", 2),
    ("wyx", None, 2),
    ("wyx", "double", 2),
] + [("double", None, n) for n in range(2, 7)]


def random_action(environment, rng):
    """A legal action of the agent to act, at random (None once it is done)."""
    observation, _, terminated, truncated, _ = environment.last()
    if terminated or truncated:
        return None
    return rng.choice(np.flatnonzero(observation["action_mask"]).tolist())


@unittest.skipUnless(env, "PettingZoo is not installed (pip install pettingzoo)")
class PettingZoo(unittest.TestCase):
    def test_every_game_passes_pettingzoos_api_test(self):
        for game_id, variant, seats in GAMES:
            with self.subTest(game=game_id, variant=variant, seats=seats):
                with warnings.catch_warnings():
                    # Dict observations (the tensor and the action mask), as PettingZoo's own
                    # board games give them, draw its advice to prefer a Box.
                    warnings.simplefilter("ignore", UserWarning)
                    api_test(env(game_id, variant=variant, seats=seats), num_cycles=500)

    def test_agents_see_their_own_tensor_and_act_only_on_their_turn(self):
        rng = random.Random(2)
        for game_id, variant, seats in [("double", None, 4), ("pegs", "turbo", 2)]:
            e = env(game_id, variant=variant, seats=seats)
            e.reset(seed=11)
            # Each seat's view follows what the referee would tell its engine.
            shadow = referee.Game(game_id, variant=variant, seats=seats, seed=11,
                                  explicit_chance=True)
            views = [referee.SeatView(game_id, variant=variant, seats=seats, seat=s)
                     for s in range(seats)]
            for agent in e.agent_iter():
                while shadow.chance_due():
                    follow_told(views, shadow.tell(shadow.seeded_chance()))
                action = random_action(e, rng)
                if action is None:
                    e.step(None)
                    continue
                for seat, other in enumerate(e.possible_agents):
                    seen = e.observe(other)
                    self.assertEqual(seen["observation"].dtype, np.float32)
                    self.assertEqual(seen["observation"].ravel().tolist(),
                                     views[seat].game().observation(seat), (game_id, other))
                    self.assertEqual(bool(seen["action_mask"].any()), other == agent)
                self.assertEqual(sorted(e.infos[agent]["moves"]), sorted(shadow.legal_moves()))
                follow_told(views, shadow.tell(e.move_text(action)))
                e.step(action)
            self.assertTrue(shadow.is_over())
            self.assertEqual(shadow.winners(), e.game.winners())

    def test_rewards_come_at_the_end_from_the_result(self):
        e = env("double-dutch", seats=3)
        e.reset(seed=3)
        rng = random.Random(3)
        totals = {agent: 0.0 for agent in e.possible_agents}
        for agent in e.agent_iter():
            _, reward, terminated, _, _ = e.last()
            totals[agent] += reward
            if not terminated:
                self.assertEqual(reward, 0.0)
            e.step(random_action(e, rng))
        self.assertAlmostEqual(sum(totals.values()), 0.0)
        self.assertEqual(sorted(totals.values()), [-0.5, -0.5, 1.0])

    def test_an_illegal_action_is_refused_with_the_game_unchanged(self):
        e = env("pegs")
        e.reset(seed=1)
        legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
        illegal = next(a for a in range(e.action_space(e.agent_selection).n) if a not in legal)
        for action in (illegal, -1, 10**6, "c2c3"):
            with self.assertRaises(referee.IllegalMove):
                e.step(action)
        self.assertEqual(e.game.ply, 0)

    def test_the_readmes_pettingzoo_example_runs(self):
        import contextlib
        import io
        import pathlib
        import re

        readme = pathlib.Path(__file__).resolve().parents[1] / "README.md"
        blocks = re.findall(r"```python pettingzoo\n(.*?)```", readme.read_text(), re.S)
        self.assertTrue(blocks)
        for block in blocks:
            printed = io.StringIO()
            with contextlib.redirect_stdout(printed):
                exec(compile(block, str(readme), "exec"), {})
            self.assertIn("winner", printed.getvalue())

    def test_render_gives_text_or_svg(self):
        e = env("wyx", render_mode="ansi")
        e.reset(seed=2)
        self.assertIn("wyx", e.render())
        e = env("wyx", render_mode="svg")
        e.reset(seed=2)
        self.assertTrue(e.render().startswith("<svg"))
        with self.assertRaises(ValueError):
            env("wyx", render_mode="rgb_array")


@unittest.skipUnless(env, "PettingZoo is not installed (pip install pettingzoo)")
class PettingZooAgainstTheBinary(NeedsBinary, unittest.TestCase):
    def test_two_hundred_games_played_through_pettingzoo_are_valid_records(self):
        rng = random.Random(7)
        lines = []
        for number in range(200):
            game_id, variant, seats = GAMES[number % len(GAMES)]
            e = env(game_id, variant=variant, seats=seats)
            e.reset(seed=number)
            for _ in e.agent_iter():
                e.step(random_action(e, rng))
            self.assertTrue(e.game.is_over())
            lines.append(e.game.record(tags={"game": str(number + 1)}))
        self.assert_valid_records(lines)


if __name__ == "__main__":
    unittest.main()
