"""OpenSpiel's MCTS against its uniform random bot at DVONN, seats alternating:

    python python/examples/openspiel_mcts_dvonn.py [GAMES] [SIMULATIONS]

(`pip install "./python[openspiel]"` first.) Prints each game's result and MCTS's score.
"""

import sys

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import referee.openspiel  # noqa: F401 (registers the games)


def main(games=2, simulations=25, seed=1):
    game = pyspiel.load_game("referee_dvonn")
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    searcher = mcts.MCTSBot(game, uct_c=1.4, max_simulations=simulations, evaluator=evaluator,
                            random_state=rng)
    score = 0.0
    for number in range(games):
        seat = number % 2  # MCTS's seat
        bots = [searcher, pyspiel.make_uniform_random_bot(1 - seat, seed + number)]
        if seat == 1:
            bots.reverse()
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        points = (state.returns()[seat] + 1) / 2
        score += points
        print("game %d: MCTS in seat %d scores %g (%s)" % (number + 1, seat, points,
                                                          state._game.outcome()))
    print("MCTS %g of %d" % (score, games))


if __name__ == "__main__":
    main(*[int(a) for a in sys.argv[1:3]])
