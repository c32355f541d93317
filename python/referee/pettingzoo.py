"""The five games as PettingZoo AEC environments.

    from referee.pettingzoo import env

    e = env("double", seats=4)
    e.reset(seed=7)
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            action = None
        else:
            action = e.action_space(agent).sample(observation["action_mask"])
        e.step(action)

- Agents are `seat_0`, `seat_1`, ...; the one to act is `agent_selection` (in DOUBLE a seat
  acts several times in a turn).
- An action is a number: the place of a move in `Game.move_space()`'s first list, the same
  numbers as `referee.openspiel`'s; `move_text(action)` is its move as the referee writes it, and
  the acting agent's `info["moves"]` lists its legal moves so. A number that is not a legal move raises `referee.IllegalMove`.
- Observations are dicts: `observation`, the agent's tensor (`Game.observation`, numbers from 0
  to 1, float32, its own seat first; DOUBLE shows only its own hand) and `action_mask` (int8, 1 for
  each legal action of the agent to act, all 0 for the others).
- Chance (Wyx's rack, DOUBLE's deal and draws) comes from the seed given to `reset`, exactly as
  the referee draws it from a match's seed, so a game can be written as a record and checked by
  `referee validate`; without a seed, `reset` draws one (`seed` then holds it).
- Rewards come at the end, as in `referee.openspiel`: a draw gives everyone 0, otherwise the
  winners share +1 and the others share -1. Games always end (no truncation).
- `render_mode`: `"human"` prints the board after every step, `"ansi"` makes `render()` return the
  text, `"svg"` an SVG picture.
"""

import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import referee
from referee._returns import returns


def env(game, variant=None, seats=None, render_mode=None):
    """An AEC environment of `game` (`referee.games()` lists them), with its variant and seats."""
    return RefereeEnv(game, variant=variant, seats=seats, render_mode=render_mode)


class RefereeEnv(AECEnv):
    """One of the referee's games as a PettingZoo AEC environment (see the module's help)."""

    metadata = {"render_modes": ["human", "ansi", "svg"], "name": "referee_v0",
                "is_parallelizable": False}

    def __init__(self, game, variant=None, seats=None, render_mode=None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError("render_mode %r is none of %s"
                             % (render_mode, ", ".join(self.metadata["render_modes"])))
        probe = referee.Game(game, variant=variant, seats=seats)
        self.game_id, self.variant, self.render_mode = game, probe.variant, render_mode
        self.metadata = dict(self.metadata, name="referee_%s_v0" % game.replace("-", "_"))
        self.possible_agents = ["seat_%d" % seat for seat in range(probe.seats)]
        self._moves = probe.move_space()[0]
        self._ids = {move: i for i, move in enumerate(self._moves)}
        self._shape = tuple(probe.observation_shape())
        observation = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, self._shape, np.float32),
            "action_mask": spaces.Box(0, 1, (len(self._moves),), np.int8),
        })
        actions = spaces.Discrete(len(self._moves))
        self._observation_spaces = {agent: observation for agent in self.possible_agents}
        self._action_spaces = {agent: actions for agent in self.possible_agents}
        self.game = None
        self.seed = None

    def observation_space(self, agent):
        return self._observation_spaces[agent]

    def action_space(self, agent):
        return self._action_spaces[agent]

    def reset(self, seed=None, options=None):
        """A new game; its chance from `seed` (drawn at random when None)."""
        self.seed = random.SystemRandom().getrandbits(64) if seed is None else seed
        self.game = referee.Game(self.game_id, variant=self.variant,
                                 seats=len(self.possible_agents), seed=self.seed)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self._select()

    def _select(self):
        """The agent to act, and the legal moves in its info."""
        seat = self.game.to_move()
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
            self.infos[self.agent_selection] = {"moves": self.game.legal_moves()}

    def move_text(self, action):
        """The move an action stands for, as the referee writes it."""
        return self._moves[action]

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        tensor = np.asarray(self.game.observation(seat), dtype=np.float32).reshape(self._shape)
        mask = np.zeros(len(self._moves), dtype=np.int8)
        if self.game.to_move() == seat:
            mask[[self._ids[move] for move in self.game.legal_moves()]] = 1
        return {"observation": tensor, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if not isinstance(action, (int, np.integer)) or not 0 <= action < len(self._moves):
            raise referee.IllegalMove("action %r is not a number from 0 to %d"
                                      % (action, len(self._moves) - 1))
        self._cumulative_rewards[agent] = 0.0
        self.infos[agent] = {}
        self.game.play(self._moves[action])
        if self.game.is_over():
            for seat, value in enumerate(returns(self.game)):
                self.rewards[self.possible_agents[seat]] = value
                self.terminations[self.possible_agents[seat]] = True
        else:
            self._clear_rewards()
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.game is None:
            return None
        if self.render_mode == "svg":
            return self.game.svg()
        if self.render_mode == "human":
            print(self.game.render())
            return None
        return self.game.render()

    def close(self):
        self.game = None
