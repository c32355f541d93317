"""OpenSpiel's information-set MCTS (ISMCTS) against uniform random bots at DOUBLE: it searches
worlds in which the cards it cannot see are dealt anew (`resample_from_infostate`), never the real
ones.

    python python/examples/openspiel_ismcts_double.py [MATCHES] [SIMULATIONS] [SEATS]

(`pip install "./python[openspiel]"` first.) Prints each match's totals and who won.
"""

import sys

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import referee.openspiel  # noqa: F401 (registers the games)


def main(matches=1, simulations=30, seats=3, seed=1):
    game = pyspiel.load_game("referee_double", {"seats": seats})
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    searcher = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=simulations,
                                random_state=rng, allow_inconsistent_action_sets=True)
    wins = 0.0
    for number in range(matches):
        seat = number % seats  # ISMCTS's seat
        bots = [pyspiel.make_uniform_random_bot(s, seed + number) for s in range(seats)]
        bots[seat] = searcher
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, chances = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=chances)))
            else:
                state.apply_action(bots[state.current_player()].step(state))
        winners = state._game.winners()
        wins += (seat in winners) / len(winners)
        print("match %d: ISMCTS in seat %d; totals %s; %s" % (number + 1, seat,
                                                             state._game.scores(),
                                                             state._game.outcome()))
    print("ISMCTS won %g of %d (a random seat wins 1 in %d)" % (wins, matches, seats))


if __name__ == "__main__":
    main(*[int(a) for a in sys.argv[1:4]])
