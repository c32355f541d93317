"""The `referee` Python module against data the Rust code did not produce: DVONN perft counts
agreed by independent programs (fixtures/dvonn/perft.tsv), the other games' perft counts checked
by an independent Python implementation (fixtures/perft.tsv), and a real CodeCup game record.
Run from the repository: python -m unittest discover -s python/tests"""

import copy
import json
import pathlib
import unittest

import referee

FIXTURES = pathlib.Path(__file__).resolve().parents[2] / "fixtures"
GAMES = [
    ("dvonn", None, None), ("double-dutch", None, 2), ("double-dutch", None, 3),
    ("pegs", "standard", None), ("pegs", "turbo", None), ("wyx", None, None),
    ("wyx", "double", None), ("double", None, 2), ("double", None, 4), ("double", None, 6),
]


class Api(unittest.TestCase):
    def test_games_and_errors(self):
        self.assertEqual(referee.games(), ["dvonn", "double-dutch", "pegs", "wyx", "double"])
        for error in (referee.ParseError, referee.IllegalMove, referee.SetupError):
            self.assertTrue(issubclass(error, referee.RefereeError))
            self.assertTrue(issubclass(error, ValueError))
        with self.assertRaises(referee.SetupError):
            referee.Game("chess")
        with self.assertRaises(referee.SetupError):
            referee.Game("pegs", variant="blitz")
        with self.assertRaises(referee.SetupError):
            referee.Game("double", seats=7)

    def test_parse_errors_and_illegal_moves_are_told_apart(self):
        game = referee.Game("pegs")
        with self.assertRaises(referee.ParseError):
            game.play("zz")
        with self.assertRaises(referee.IllegalMove) as raised:
            game.play("c2c4")
        self.assertTrue(str(raised.exception))
        self.assertEqual(game.ply, 0, "an error leaves the game as it was")
        self.assertEqual(game.play("C2C3"), "c2c3")
        self.assertEqual(game.ply, 1)
        self.assertEqual(game.to_move(), 1)

    def test_perft_lets_other_threads_run_and_stops_at_its_budget(self):
        import threading
        import time

        game = referee.Game("dvonn")
        counted = [0]
        done = threading.Event()

        def count():
            while not done.is_set():
                counted[0] += 1
                time.sleep(0.001)

        counter = threading.Thread(target=count)
        counter.start()
        time.sleep(0.05)
        before = counted[0]
        began = time.monotonic()
        game.perft(5)
        took = time.monotonic() - began
        during = counted[0] - before
        done.set()
        counter.join()
        # A thread that holds the interpreter lock lets no other run (about 0 counts).
        self.assertGreater(during, took * 1000 / 20, f"{during} counts in {took:.2f} s")
        # Too deep to finish: the budget (positions expanded) stops it, and says so.
        began = time.monotonic()
        with self.assertRaises(referee.RefereeError) as raised:
            game.perft(40, budget=100_000)
        self.assertIn("budget", str(raised.exception))
        self.assertLess(time.monotonic() - began, 30)
        self.assertEqual(game.perft(2, budget=10_000), referee.Game("dvonn").perft(2))

    def test_errors_quote_a_long_input_briefly(self):
        game = referee.Game("pegs")
        long = "c2c3" + "x" * 2_000_000
        for call in (lambda: game.play(long), lambda: referee.Game.from_record(long),
                     lambda: referee.Game("pegs", variant=long)):
            with self.assertRaises(referee.RefereeError) as raised:
                call()
            self.assertLess(len(str(raised.exception)), 1000, str(raised.exception)[:200])

    def test_copies_are_independent(self):
        game = referee.Game("double-dutch", seats=3)
        for other in (game.copy(), copy.copy(game), copy.deepcopy(game)):
            other.play(other.legal_moves()[0])
            self.assertEqual(game.ply, 0)
            self.assertEqual(other.ply, 1)

    def test_games_play_to_their_end(self):
        for game_id, variant, seats in [
            ("dvonn", None, None), ("double-dutch", None, 3), ("pegs", "turbo", None),
            ("wyx", "double", None), ("double", None, 4),
        ]:
            game = referee.Game(game_id, variant=variant, seats=seats, seed=7)
            while not game.is_over():
                self.assertIsNotNone(game.to_move())
                game.play(game.legal_moves()[-1])
            self.assertTrue(game.winners(), game_id)
            self.assertEqual(len(game.scores()), game.seats)
            self.assertEqual(game.legal_moves(), [])
            self.assertIn("game over", game.render())

    def test_every_legal_move_is_in_the_move_space(self):
        # The same games as above, to their end: each legal move a seat has is one of the space's,
        # whose texts are distinct; DOUBLE's chance outcomes are a list of their own.
        for game_id, variant, seats in [
            ("dvonn", None, None), ("double-dutch", None, 3), ("pegs", "turbo", None),
            ("wyx", "double", None), ("double", None, 4),
        ]:
            game = referee.Game(game_id, variant=variant, seats=seats, seed=7)
            moves, chance = game.move_space()
            self.assertEqual(len(set(moves)), len(moves), game_id)
            self.assertEqual(bool(chance), game_id == "double", game_id)
            space = set(moves)
            while not game.is_over():
                legal = game.legal_moves()
                self.assertTrue(set(legal) <= space, (game_id, set(legal) - space))
                game.play(legal[len(legal) // 2])
        self.assertEqual(len(referee.Game("dvonn").move_space()[0]), 49 + 49 * 48 + 1)

    def test_explicit_chance_waits_for_each_card_and_replays_as_a_record(self):
        game = referee.Game("double", seats=3, explicit_chance=True)
        self.assertTrue(game.explicit_chance and game.chance_due())
        self.assertIsNone(game.to_move())
        self.assertEqual(len(game.legal_moves()), 72)
        self.assertTrue(all(m.startswith("deal 0 ") for m in game.legal_moves()))
        moves = []
        while not game.is_over():
            legal = game.legal_moves()
            seat = game.to_move()
            self.assertEqual(seat is None, game.chance_due())
            moves.append({"ply": game.ply, "seat": seat, "move": game.play(legal[(game.ply * 5) % len(legal)])})
        self.assertGreater(sum(m["seat"] is None for m in moves), 3 * 6 + 1)
        record = {
            "format": "referee-record", "version": 1, "game": "double",
            "seats": [{"name": n} for n in "abc"], "seed": 0, "moves": moves,
        }
        replayed = referee.Game.from_record(json.dumps(record))
        self.assertTrue(replayed.is_over())
        self.assertEqual(replayed.scores(), game.scores())

    def test_explicit_chance_that_follows_the_seed_is_the_seeded_game(self):
        follower = referee.Game("double", seats=3, seed=8, explicit_chance=True)
        seeded = referee.Game("double", seats=3, seed=8)
        self.assertIsNone(seeded.seeded_chance())
        while not seeded.is_over():
            while follower.chance_due():
                follower.play(follower.seeded_chance())
            self.assertIsNone(follower.seeded_chance())
            legal = seeded.legal_moves()
            self.assertEqual(follower.legal_moves(), legal)
            move = legal[seeded.ply % len(legal)]
            seeded.play(move)
            follower.play(move)
        self.assertTrue(follower.is_over())
        self.assertEqual((follower.ply, follower.scores()), (seeded.ply, seeded.scores()))

    def test_a_pickled_game_comes_back_the_same(self):
        import pickle

        for game_id, variant, seats in GAMES:
            for explicit in (False, True):
                game = referee.Game(game_id, variant=variant, seats=seats, seed=9, explicit_chance=explicit)
                for _ in range(60):
                    if game.is_over():
                        break
                    legal = game.legal_moves()
                    game.play(legal[game.ply % len(legal)])
                back = pickle.loads(pickle.dumps(game))
                self.assertEqual((back.ply, back.seed, back.explicit_chance), (game.ply, game.seed, explicit))
                self.assertEqual(back.render(), game.render(), game_id)
                self.assertEqual(back.legal_moves(), game.legal_moves(), game_id)
                # The seed goes on drawing the same cards after the copy as before it.
                for copy_ in (game, back):
                    while not copy_.is_over() and copy_.ply < 120:
                        legal = copy_.legal_moves()
                        copy_.play(legal[copy_.ply % len(legal)])
                self.assertEqual(back.render(), game.render(), game_id)
        record = {
            "format": "referee-record", "version": 1, "game": "dvonn",
            "seats": [{"name": "a"}, {"name": "b"}], "seed": 0,
            "moves": [{"ply": i, "seat": None, "move": m} for i, m in enumerate(["D2", "C1", "E3"])],
        }
        game = referee.Game.from_record(json.dumps(record), plies=2)
        self.assertEqual(pickle.loads(pickle.dumps(game)).render(), game.render())
        self.assertEqual(pickle.loads(pickle.dumps(game)).ply, 2)
        guess = referee.SeatView("double", seats=2, seat=0).game(seed=1)
        with self.assertRaises(referee.RefereeError):
            pickle.dumps(guess)

    def test_max_plies_bounds_every_game(self):
        self.assertEqual(referee.Game("dvonn").max_plies(), 49 + 48 + 49)
        self.assertEqual(referee.Game("wyx", variant="double").max_plies(), 2 * (64 + 65))
        for game_id, variant, seats in GAMES:
            game = referee.Game(game_id, variant=variant, seats=seats, seed=3)
            while not game.is_over():
                legal = game.legal_moves()
                game.play(legal[game.ply % len(legal)])
            self.assertLessEqual(game.ply, game.max_plies(), game_id)

    def test_each_seat_is_told_its_own_cards_and_no_one_elses(self):
        game = referee.Game("double", seats=3, seed=4, explicit_chance=True)
        self.assertEqual(game.newgame_line(2), "newgame double seats=3 seat=2")
        self.assertTrue(referee.Game("wyx").newgame_line(0).startswith("newgame wyx seats=2 seat=0 setup="))
        # Each seat's view follows the lines it is told, as an engine would.
        views = [referee.SeatView("double", seats=3, seat=s) for s in range(3)]
        told = [[] for _ in range(3)]
        rounds = 0
        while not game.is_over():
            legal = game.legal_moves()
            move = legal[(game.ply * 7) % len(legal)]
            if game.to_move() is not None:
                self.assertEqual(views[game.to_move()].legal_moves(), legal)
            lines = game.tell(move)
            follow_told(views, lines)
            for seat, text in enumerate(lines):
                for line in text.split("\n"):
                    told[seat].append(line)
                    words = line.split()
                    rounds += seat == 0 and words[:2] == ["event", "round"]
                    if words[:2] in (["event", "deal"], ["event", "draw"]) and int(words[2]) != seat:
                        self.assertEqual(len(words), 3, line)
        # The match ends after the round that takes a total to 50: its scores are the last line.
        self.assertGreater(rounds, 0)
        self.assertTrue(all(t[-1].startswith("event round %d " % rounds) for t in told))
        for seat in range(3):
            mine = [l for l in told[seat] if l.startswith(("event deal %d " % seat, "event draw %d " % seat))]
            self.assertTrue(mine and all(":" in l for l in mine))

    def test_double_hides_other_hands(self):
        game = referee.Game("double", seats=3, seed=5)
        mine = game.render(seat=1)
        self.assertIn("(hidden)", mine)
        self.assertNotIn("(hidden)", game.render())
        with self.assertRaises(referee.RefereeError):
            game.render(seat=3)


class Perft(unittest.TestCase):
    def test_dvonn_counts_agreed_by_independent_programs(self):
        rows = (FIXTURES / "dvonn" / "perft.tsv").read_text().splitlines()[1:]
        for row in rows:
            fields = row.split("\t")
            counts = [int(c) for c in fields[3:6]]
            game = referee.Game("dvonn")
            for move in fields[-1].split():
                game.play(move)
            self.assertEqual([game.perft(d) for d in (1, 2, 3)], counts, fields[0])

    def test_other_games_counts_checked_by_an_independent_implementation(self):
        rows = (FIXTURES / "perft.tsv").read_text().splitlines()[1:]
        for row in rows:
            game_id, variant, seats, setup, counts, *prefix = row.split("\t")
            game = referee.Game(
                game_id,
                variant=None if variant == "-" else variant,
                seats=int(seats),
                setup=None if setup == "-" else setup,
            )
            for move in (prefix[0].split() if prefix else []):
                game.play(move)
            expected = [int(c) for c in counts.split(",")][:3]
            got = [game.perft(d) for d in range(1, len(expected) + 1)]
            self.assertEqual(got, expected, row[:60])


class DvonnFixtures(unittest.TestCase):
    def test_a_hundred_random_games_replay_with_every_legal_move_list(self):
        # Generated with PrimaDvonna's move generator: its legal moves at every movement ply, the
        # number of legal moves at every ply, the final scores and result.
        lines = (FIXTURES / "dvonn" / "random-games-100.jsonl").read_text().splitlines()
        self.assertEqual(len(lines), 100)
        for line in lines:
            fixture = json.loads(line)
            game = referee.Game("dvonn")
            moves = fixture["moves"].split()
            for ply, text in enumerate(moves):
                legal = game.legal_moves()
                if legal != ["pass"]:
                    self.assertEqual(len(legal), fixture["nlegal"][ply], (fixture["id"], ply))
                if ply >= 49 and legal != ["pass"]:
                    expected = fixture["movement_legal"][ply - 49].split(",")
                    self.assertEqual(sorted(legal), expected, (fixture["id"], ply))
                game.play(text)
            self.assertTrue(game.is_over(), fixture["id"])
            self.assertEqual(game.scores(), [fixture["score_white"], fixture["score_black"]])
            expected = {"white": [0], "black": [1]}.get(fixture["result"], [0, 1])
            self.assertEqual(game.winners(), expected, fixture["id"])

    def test_the_codecup_game_replays_to_its_end(self):
        transcript = (FIXTURES / "dvonn" / "codecup-2011-game-53360.txt").read_text()
        game = referee.Game("dvonn")
        tokens = transcript.split(":", 1)[-1].replace(",", " ").split()
        for token in tokens:
            game.play(token)
        self.assertGreater(game.ply, 49)


class Records(unittest.TestCase):
    def test_a_record_replays_and_a_bad_ply_is_named(self):
        line = (FIXTURES / "dvonn" / "random-games-100.jsonl").read_text().splitlines()[0]
        fixture = json.loads(line)
        record = {
            "format": "referee-record", "version": 1, "game": "dvonn",
            "seats": [{"name": "a"}, {"name": "b"}], "seed": 0,
            "moves": [{"ply": i, "seat": None, "move": m} for i, m in enumerate(["D2", "C1"])],
        }
        game = referee.Game.from_record(json.dumps(record))
        self.assertEqual(game.ply, 2)
        self.assertEqual(referee.Game.from_record(json.dumps(record), plies=1).ply, 1)
        record["moves"][1]["move"] = "D2"
        with self.assertRaises(referee.IllegalMove) as raised:
            referee.Game.from_record(json.dumps(record))
        self.assertIn("ply 1", str(raised.exception))
        with self.assertRaises(referee.RefereeError):
            referee.Game.from_record("{}")
        self.assertTrue(fixture["complete"])


class Views(unittest.TestCase):
    def test_a_seat_view_follows_the_protocol_lines(self):
        view = referee.SeatView("pegs", seats=2, seat=1)
        self.assertEqual(view.follow(0, "C2C3"), "c2c3")
        self.assertEqual(view.to_move(), 1)
        self.assertTrue(view.legal_moves())
        with self.assertRaises(referee.ParseError):
            view.follow(1, "nonsense")
        with self.assertRaises(referee.IllegalMove):
            view.follow(1, "c2c3")
        self.assertEqual(view.game().ply, 1)

    def test_a_double_view_knows_only_its_own_hand(self):
        view = referee.SeatView("double", seats=3, seat=2)
        self.assertTrue(view.chance_due())
        self.assertEqual(view.legal_moves(), [])


if __name__ == "__main__":
    unittest.main()


class Stubs(unittest.TestCase):
    def test_the_stubs_name_every_public_call_and_nothing_else(self):
        import ast

        stubs = ast.parse((pathlib.Path(__file__).resolve().parents[1] / "referee" / "_referee.pyi").read_text())
        declared = {}
        for node in stubs.body:
            if isinstance(node, ast.ClassDef):
                declared[node.name] = {
                    n.name for n in node.body if isinstance(n, ast.FunctionDef)
                } - {"__init__"}
            elif isinstance(node, ast.FunctionDef):
                declared[node.name] = None
        import inspect

        # The package's own modules (the toolkits' adapters) are not the compiled module's.
        public = {
            name for name in dir(referee)
            if not name.startswith("_") and not inspect.ismodule(getattr(referee, name))
        }
        self.assertEqual(set(declared), public)
        for name in ("Game", "SeatView"):
            methods = {m for m in dir(getattr(referee, name)) if not m.startswith("_")}
            methods |= {m for m in ("__copy__", "__deepcopy__") if hasattr(getattr(referee, name), m)}
            self.assertEqual(declared[name], methods, name)
            # Every call has its documentation in the module too.
            for method in declared[name]:
                self.assertTrue(getattr(getattr(referee, name), method).__doc__, method)


class Readmes(unittest.TestCase):
    def test_every_python_example_of_the_guides_runs(self):
        import contextlib
        import io
        import re

        root = pathlib.Path(__file__).resolve().parents[2]
        for readme in (root / "docs" / "bot-authors.md", root / "python" / "README.md"):
            blocks = re.findall(r"```python\n(.*?)```", readme.read_text(), re.S)
            self.assertTrue(blocks, readme)
            for block in blocks:
                with contextlib.redirect_stdout(io.StringIO()):
                    exec(compile(block, str(readme), "exec"), {})


def follow_told(views, told):
    """Each seat's view follows the lines its engine is told (`Game.tell`'s texts, in seat
    order), as an engine would: `play SEAT MOVE` and `event TEXT`."""
    for view, text in zip(views, told):
        for line in text.split("\n"):
            words = line.split(" ", 2)
            if words[0] == "play":
                view.follow(int(words[1]), words[2])
            else:
                view.follow(None, line.split(" ", 1)[1])


class NeedsBinary:
    """The referee binary: REFEREE, else target/debug/referee, else `referee` on PATH, else the
    test is skipped with a note."""

    def binary(self):
        import os
        import shutil

        found = os.environ.get("REFEREE") or str(pathlib.Path(__file__).resolve().parents[2]
                                                 / "target" / "debug" / "referee")
        if not pathlib.Path(found).exists():
            found = shutil.which("referee")
        if not found:
            self.skipTest("no referee binary: build it, or set REFEREE")
        return found

    def assert_valid_records(self, lines):
        """Writes `lines` (records) to a file and has `referee validate` judge them all valid."""
        import subprocess
        import tempfile

        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
            f.write("\n".join(lines) + "\n")
        judged = subprocess.run([self.binary(), "validate", f.name], capture_output=True,
                                text=True)
        self.assertEqual(judged.returncode, 0, judged.stdout + judged.stderr)
        self.assertIn(f"{len(lines)} records", judged.stdout)


class AgainstTheBinary(NeedsBinary, unittest.TestCase):
    """Random games played through the package, written as records and judged by the binary's
    `referee validate`; its errors and the binary's."""

    def test_random_games_are_valid_records(self):
        import random

        rng = random.Random(3)
        lines = []
        for number, (game_id, variant, seats) in enumerate(
                [("dvonn", None, 2), ("double-dutch", None, 2), ("double-dutch", None, 3),
                 ("pegs", "standard", 2), ("pegs", "turbo", 2), ("wyx", None, 2),
                 ("wyx", "double", 2), ("double", None, 2), ("double", None, 5)] * 4):
            game = referee.Game(game_id, variant=variant, seats=seats, seed=number)
            while not game.is_over():
                game.play(rng.choice(game.legal_moves()))
            names = [f"s{i}" for i in range(seats)]
            lines.append(game.record(names=names, tags={"game": str(number + 1)}))
        self.assert_valid_records(lines)

    def test_a_record_names_its_seats_and_refuses_what_it_cannot_know(self):
        game = referee.Game("pegs", seed=4)
        played = game.play(game.legal_moves()[0])
        record = json.loads(game.record())
        self.assertEqual([s["name"] for s in record["seats"]], ["seat 0", "seat 1"])
        self.assertEqual(record["moves"], [{"ply": 0, "seat": 0, "move": played}])
        self.assertNotIn("result", record)
        with self.assertRaises(referee.RefereeError):
            game.record(names=["only one"])
        with self.assertRaises(referee.RefereeError):
            referee.SeatView("double", seats=2, seat=0).game().record()

    def test_errors_say_what_the_binary_says(self):
        import subprocess

        referee_binary = self.binary()
        for args, call in [
            (["moves", "--game", "pegs", "--variant", "blitz"],
             lambda: referee.Game("pegs", variant="blitz")),
            (["moves", "--game", "double", "--seats", "9"],
             lambda: referee.Game("double", seats=9)),
        ]:
            cli = subprocess.run([referee_binary] + args, capture_output=True, text=True)
            with self.assertRaises(referee.SetupError) as raised:
                call()
            self.assertIn(str(raised.exception), cli.stderr)


class Examples(NeedsBinary, unittest.TestCase):
    def test_the_mcts_example_passes_check_engine(self):
        import os
        import subprocess
        import sys

        referee_binary = self.binary()
        bot = pathlib.Path(__file__).resolve().parents[2] / "examples" / "mcts_bot.py"
        checked = subprocess.run(
            [referee_binary, "check-engine", "--game", "pegs", "--", sys.executable, str(bot)],
            capture_output=True, text=True, env={**os.environ, "MCTS_MS": "20"})
        self.assertEqual(checked.returncode, 0, checked.stdout + checked.stderr)
