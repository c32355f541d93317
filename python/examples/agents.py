"""Two agents for `python -m referee.engine`, which plays them in `referee match`:

    referee match --game pegs --games 2 --engine level=1 \\
        --engine 'name=policy cmd="python -m referee.engine python/examples/agents.py:policy"'
    referee match --game dvonn --games 2 --engine random \\
        --engine 'name=mcts cmd="python -m referee.engine --openspiel python/examples/agents.py:make_bot"'

`policy` is a PettingZoo policy (here a legal action at random: put a trained network there);
`make_bot` makes OpenSpiel's MCTS bot for the game the referee starts.
"""

import numpy as np

_rng = np.random.default_rng()


def policy(observation, agent):
    """A legal action at random, from the action mask."""
    return int(_rng.choice(np.flatnonzero(observation["action_mask"])))


def make_bot(game, player):
    """OpenSpiel's MCTS with random rollouts: 20 simulations a move."""
    from open_spiel.python.algorithms import mcts

    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1)
    return mcts.MCTSBot(game, uct_c=1.4, max_simulations=20, evaluator=evaluator)
