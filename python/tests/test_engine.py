"""`python -m referee.engine`: a PettingZoo policy or an OpenSpiel bot played in `referee match`,
and the example scripts of the AI toolkits. Run from the repository: python -m pytest python/tests"""

import io
import json
import pathlib
import shlex
import subprocess
import sys
import tempfile
import unittest

import referee
from referee.engine import PolicyPlayer, serve

try:
    import pyspiel
except ImportError:
    pyspiel = None
try:
    import pettingzoo
except ImportError:
    pettingzoo = None

from test_referee import NeedsBinary

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"
AGENTS = EXAMPLES / "agents.py"


def first_legal(observation, agent):
    """The first legal action: a policy whose moves a test can foresee."""
    return int(observation["action_mask"].argmax())


class Protocol(unittest.TestCase):
    def test_it_answers_the_referees_commands_with_the_policys_moves(self):
        lines = ["1 protocol_version", "2 name", "3 newgame pegs standard seats=2 seat=1 seed=5",
                 "4 play 0 c2c3", "5 genmove 1 movetime=100", "6 frobnicate", "7 quit"]
        out = io.StringIO()
        serve(PolicyPlayer(first_legal), "first", lines, out)
        answers = [a for a in out.getvalue().split("\n") if a]
        game = referee.Game("pegs")
        game.play("c2c3")
        moves, _ = game.move_space()
        expected = min(game.legal_moves(), key=moves.index)
        self.assertEqual(answers, ["=1 2", "=2 first", "=3", "=4", "=5 " + expected,
                                   "?6 unknown command", "=7"])

    def test_a_move_it_cannot_follow_is_an_error_not_a_crash(self):
        out = io.StringIO()
        serve(PolicyPlayer(first_legal), "first",
              ["1 newgame pegs seats=2 seat=0", "2 play 0 z9", "3 genmove 0", "4 quit"], out)
        answers = [a for a in out.getvalue().split("\n") if a]
        self.assertTrue(answers[1].startswith("?2 "), answers)
        self.assertTrue(answers[2].startswith("=3 "), answers)


class InAMatch(NeedsBinary, unittest.TestCase):
    def match(self, game, target, *args, seats=2, games=2, openspiel=False):
        """Plays `target` (FILE.py:NAME) as seat 1 against the built-in random bot; returns the
        records."""
        command = [sys.executable, "-m", "referee.engine"] + (["--openspiel"] if openspiel else [])
        engine = "name=agent cmd=%s" % shlex.quote(" ".join(map(shlex.quote, command + [target])))
        out = pathlib.Path(tempfile.mkdtemp()) / "games.jsonl"
        engines = ["--engine", "random", "--engine", engine]
        engines += ["--engine", "random"] * (seats - 2)
        run = subprocess.run([self.binary(), "match", "--game", game, "--games", str(games),
                              "--seats", str(seats), "--movetime", "500", "--startup", "30000",
                              "--seed", "1", *engines, *args, "--out", str(out)],
                             capture_output=True, text=True, timeout=600)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        records = [json.loads(line) for line in out.read_text().splitlines()]
        self.assert_valid_records([json.dumps(r) for r in records])
        return records

    def test_a_pettingzoo_policy_plays_a_match(self):
        for game, seats, games in [("pegs", 2, 2), ("double", 3, 1)]:
            for record in self.match(game, "%s:policy" % AGENTS, seats=seats, games=games):
                self.assertEqual(record["end"], {"reason": "normal"}, record["end"])

    @unittest.skipUnless(pyspiel, "OpenSpiel is not installed")
    def test_an_openspiel_bot_plays_a_match_from_the_rack_it_is_told(self):
        for record in self.match("wyx", "%s:make_bot" % AGENTS, games=1, openspiel=True):
            self.assertEqual(record["end"], {"reason": "normal"}, record["end"])

    @unittest.skipUnless(pyspiel, "OpenSpiel is not installed")
    def test_an_openspiel_bot_refuses_a_game_that_hides_cards(self):
        (record,) = self.match("double", "%s:make_bot" % AGENTS, games=1, openspiel=True)
        self.assertEqual(record["end"]["verdict"], "protocol_error")
        self.assertIn("DOUBLE hides the hands", record["end"]["detail"])


class Examples(NeedsBinary, unittest.TestCase):
    def run_example(self, name, *args):
        run = subprocess.run([sys.executable, str(EXAMPLES / name), *map(str, args)],
                             capture_output=True, text=True, timeout=600)
        self.assertEqual(run.returncode, 0, run.stderr)
        return run.stdout

    @unittest.skipUnless(pyspiel, "OpenSpiel is not installed")
    def test_openspiels_searches_play_dvonn_and_double(self):
        self.assertIn("MCTS", self.run_example("openspiel_mcts_dvonn.py", 1, 5))
        self.assertIn("ISMCTS won", self.run_example("openspiel_ismcts_double.py", 1, 5, 2))

    @unittest.skipUnless(pyspiel and pettingzoo, "OpenSpiel or PettingZoo is not installed")
    def test_the_benches_run(self):
        import os

        benches = EXAMPLES.parent / "benches"
        run = subprocess.run([sys.executable, str(benches / "adapters.py"), "pegs", "1"],
                             capture_output=True, text=True, timeout=600)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(run.stdout.count("plies/s"), 3, run.stdout)
        run = subprocess.run([sys.executable, str(benches / "playouts.py"), "pegs", "1"],
                             capture_output=True, text=True, timeout=600,
                             env=dict(os.environ, REFEREE=self.binary()))
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn("times faster", run.stdout)

    @unittest.skipUnless(pettingzoo, "PettingZoo is not installed")
    def test_the_pettingzoo_rollout_writes_valid_records(self):
        lines = self.run_example("pettingzoo_rollout.py", "double-dutch", 3, 3).splitlines()
        self.assertEqual(len(lines), 3)
        self.assert_valid_records(lines)


if __name__ == "__main__":
    unittest.main()
