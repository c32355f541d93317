"""The five games as OpenSpiel games: `import referee.openspiel` registers them.

    import pyspiel
    import referee.openspiel

    game = pyspiel.load_game("referee_dvonn")
    game = pyspiel.load_game("referee_double", {"seats": 4})
    game = pyspiel.load_game("referee_pegs", {"variant": "turbo"})

Names and parameters: `referee_dvonn`; `referee_double_dutch` (`seats` 2 or 3); `referee_pegs`
(`variant` `standard` or `turbo`); `referee_wyx` (`variant` empty or `double`); `referee_double`
(`seats` 2 to 6). The rules are the referee's own (the compiled `referee` module), nothing
re-implemented.

- Actions are numbers: a seat's action is the place of its move in `Game.move_space()`'s first
  list, a chance outcome its place in the second (DOUBLE's cards), and `action_to_string` gives
  the referee's move text (`B4E4`, `right c31:RYB`, `deal 2 c17:RGB`).
- Chance is explicit, each outcome as likely as any other: DOUBLE's deal, start card and draws,
  one card a ply; Wyx's rack, one domino a ply, each colour's 16 in a shuffled order (64 chance
  plies before the first move). The other games are deterministic.
- `information_state_string(seat)` is what the referee tells that seat's engine, line by line:
  its `newgame` line (without seed and clock), then every `play` and `event` line; it never names
  a card the seat may not see. `observation_string(seat)` is the position as that seat sees it
  (`Game.render(seat)`), `observation_tensor(seat)` its numbers (`Game.observation(seat)`, in
  `Game.observation_shape()`); information states are strings only.
- Utilities at the end: a draw gives everyone 0; otherwise the winners share +1 and the others
  share -1 (two seats: +1 and -1).
- `serialize` and `deserialize_state` replay the action history, as OpenSpiel does by default.
"""

import random

import numpy as np
import pyspiel

import referee
from referee._returns import returns

_Type = pyspiel.GameType

# OpenSpiel's name, the referee's id, the parameters and their defaults, the fewest and most
# seats, and whether some information is hidden.
_GAMES = [
    ("referee_dvonn", "dvonn", {}, 2, 2, False),
    ("referee_double_dutch", "double-dutch", {"seats": 2}, 2, 3, False),
    ("referee_pegs", "pegs", {"variant": "standard"}, 2, 2, False),
    ("referee_wyx", "wyx", {"variant": ""}, 2, 2, False),
    ("referee_double", "double", {"seats": 2}, 2, 6, True),
]

# The OpenSpiel name of each of the referee's games.
GAME_NAMES = {game_id: name for name, game_id, *_ in _GAMES}

# Wyx's rack: 4 colours of 16 dominoes, each colour in two columns of 8, foot first.
_COLOURS, _PER_COLOUR, _PER_COLUMN = 4, 16, 8


def _game_type(name, game_id, defaults, fewest, most, hidden):
    chance = game_id in ("wyx", "double")
    return _Type(
        short_name=name,
        long_name="%s (the referee's rules)" % game_id,
        dynamics=_Type.Dynamics.SEQUENTIAL,
        chance_mode=_Type.ChanceMode.EXPLICIT_STOCHASTIC if chance else _Type.ChanceMode.DETERMINISTIC,
        information=_Type.Information.IMPERFECT_INFORMATION
        if hidden
        else _Type.Information.PERFECT_INFORMATION,
        utility=_Type.Utility.ZERO_SUM,
        reward_model=_Type.RewardModel.TERMINAL,
        max_num_players=most,
        min_num_players=fewest,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=defaults,
    )


def _rules(game_id, variant, seats):
    """The rules of a game as set up, made once: every state refers to them."""
    key = (game_id, variant, seats)
    if key not in _RULES:
        _RULES[key] = _Rules(*key)
    return _RULES[key]


_RULES = {}


class _Rules:
    """What every state of one game shares, never changed: its setup, its numbered moves, Wyx's
    dominoes. A state's copy or pickle refers to them rather than copying them."""

    def __init__(self, game_id, variant, seats):
        self.game_id = game_id
        self.variant = variant
        self.seats = seats
        self._key = (game_id, variant, seats)
        probe = referee.Game(game_id, variant=self.variant, seats=self.seats)
        self.seats = probe.seats
        self.moves, self.chance = probe.move_space()
        self.move_ids = {m: i for i, m in enumerate(self.moves)}
        self.chance_ids = {m: i for i, m in enumerate(self.chance)}
        self.max_plies = probe.max_plies()
        self.shape = probe.observation_shape()
        self.dominoes = None
        if game_id == "wyx":
            # Each colour's dominoes in a fixed order, read off any rack.
            columns = probe.public_setup().split("/")
            self.dominoes = [
                sorted(columns[2 * c].split(",") + columns[2 * c + 1].split(","))
                for c in range(_COLOURS)
            ]
            self.max_plies += _COLOURS * _PER_COLOUR

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (_rules, self._key)

    def new_game(self, setup=None):
        return referee.Game(
            self.game_id, variant=self.variant, seats=self.seats, setup=setup, explicit_chance=True
        )


class RefereeGame(pyspiel.Game):
    """One of the referee's games, as OpenSpiel loads it: each game is a subclass naming its
    game type and id."""

    game_type = None
    game_id = None

    def __init__(self, params=None):
        params = params or {}
        self.rules = _rules(self.game_id, params.get("variant") or None, params.get("seats"))
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.rules.moves),
            max_chance_outcomes=_PER_COLOUR if self.rules.dominoes else len(self.rules.chance),
            num_players=self.rules.seats,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.rules.max_plies,
        )
        super().__init__(self.game_type, info, params)

    def new_initial_state(self):
        return RefereeState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError("the referee's observers take no parameters, not %r" % (params,))
        recall = iig_obs_type is None or iig_obs_type.perfect_recall
        return _Observer(self.rules, recall)


class RefereeState(pyspiel.State):
    """A position: the referee's `Game`, with explicit chance, and what each seat was told."""

    def __init__(self, game):
        super().__init__(game)
        self._rules = game.rules
        self._game = None
        self._rack = []
        self._told = []
        if self._rules.dominoes is None:
            self._start(self._rules.new_game())

    def _start(self, game):
        self._game = game
        self._told = [_Told(game.newgame_line(seat)) for seat in range(self._rules.seats)]

    def current_player(self):
        if self._game is None or self._game.chance_due():
            return pyspiel.PlayerId.CHANCE
        seat = self._game.to_move()
        return pyspiel.PlayerId.TERMINAL if seat is None else seat

    def _legal_actions(self, player):
        ids = self._rules.move_ids
        return sorted(ids[m] for m in self._game.legal_moves())

    def chance_outcomes(self):
        if self._game is None:
            outcomes = self._rack_left()
        else:
            outcomes = sorted(self._rules.chance_ids[m] for m in self._game.legal_moves())
        return [(o, 1.0 / len(outcomes)) for o in outcomes]

    def draw_rack(self, rack):
        """Plays Wyx's rack as `rack` gives it (the public setup, as `newgame`'s `setup=` and
        records write it): the 64 chance plies of the start, so that the state follows a game
        the referee set up. Nothing for a game without a rack."""
        if self._rules.dominoes is None:
            return
        if self._game is not None or self._rack:
            raise ValueError("the rack is drawn already")
        columns = [column.split(",") for column in (rack or "").split("/")]
        if len(columns) != 2 * _COLOURS or any(len(c) != _PER_COLUMN for c in columns):
            raise ValueError("%r is no rack: 8 columns of 8 dominoes" % (rack,))
        for colour in range(_COLOURS):
            for domino in columns[2 * colour] + columns[2 * colour + 1]:
                if domino not in self._rules.dominoes[colour]:
                    raise ValueError("%s is no domino of rack colour %d" % (domino, colour + 1))
                self.apply_action(self._rules.dominoes[colour].index(domino))

    def resample_from_infostate(self, player, sampler):
        """A state `player` cannot tell from this one: the cards it cannot see dealt anew (from
        a seed the sampler draws), what it was told kept. The other seats are given `player`'s
        lines as what they were told so far (their own lines would name their real cards), so an
        information-set search keys their nodes on what the searching seat knows."""
        if self._game is None:
            raise pyspiel.SpielError("the rack is not drawn yet: nothing to resample")
        state = RefereeState.__new__(type(self))
        pyspiel.State.__init__(state, self.get_game())
        state._rules = self._rules
        state._rack = self._rack
        seed = int(sampler() * 2**63) if callable(sampler) else random.getrandbits(63)
        state._game = self._game.resample(player, seed)
        state._told = [self._told[player]] * self._rules.seats
        return state

    def _rack_colour(self):
        return len(self._rack) // _PER_COLOUR

    def _rack_left(self):
        colour = self._rack_colour()
        taken = set(self._rack[colour * _PER_COLOUR :])
        return [i for i in range(_PER_COLOUR) if i not in taken]

    def _apply_action(self, action):
        if self._game is None:
            self._rack.append(action)
            if len(self._rack) == _COLOURS * _PER_COLOUR:
                self._start(self._rules.new_game(self._rack_text()))
            return
        if self._game.chance_due():
            text = self._rules.chance[action]
        else:
            text = self._rules.moves[action]
        for seat, lines in enumerate(self._game.tell(text)):
            self._told[seat] = _Told(lines, self._told[seat])

    def _rack_text(self):
        columns = []
        for colour in range(_COLOURS):
            drawn = self._rack[colour * _PER_COLOUR : (colour + 1) * _PER_COLOUR]
            dominoes = [self._rules.dominoes[colour][i] for i in drawn]
            columns += [dominoes[:_PER_COLUMN], dominoes[_PER_COLUMN:]]
        return "/".join(",".join(column) for column in columns)

    def _action_to_string(self, player, action):
        if player != pyspiel.PlayerId.CHANCE:
            return self._rules.moves[action]
        if self._rules.dominoes is not None:
            return "rack %s" % self._rules.dominoes[self._rack_colour() % _COLOURS][action]
        return self._rules.chance[action]

    def is_terminal(self):
        return self._game is not None and self._game.is_over()

    def returns(self):
        if self._game is None:
            return [0.0] * self._rules.seats
        return returns(self._game)

    def __str__(self):
        if self._game is None:
            return "the rack: %d of %d dominoes drawn" % (len(self._rack), _COLOURS * _PER_COLOUR)
        return self._game.render()


class _Told:
    """What one seat was told, a text of lines added after the ones before: never changed, so the
    copies of a state share it (OpenSpiel copies a state at every step of its searches)."""

    __slots__ = ("lines", "before")

    def __init__(self, lines, before=None):
        self.lines = lines
        self.before = before

    def texts(self):
        texts, told = [], self
        while told is not None:
            texts.append(told.lines)
            told = told.before
        return texts[::-1]

    def text(self):
        return "\n".join(self.texts())

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (_told_from, (self.texts(),))


def _told_from(texts):
    told = None
    for lines in texts:
        told = _Told(lines, told)
    return told


class _Observer:
    """What a seat knows. With perfect recall (the information state), the lines its engine was
    told, as a string only; otherwise the position as it sees it: its text, and its tensor
    (`Game.observation`; all 0 while Wyx's rack is being drawn)."""

    def __init__(self, rules, recall):
        self._rules = rules
        self._recall = recall
        self.tensor = np.zeros(int(np.prod(rules.shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(rules.shape)}

    def set_from(self, state, player):
        if self._recall:
            raise NotImplementedError("the referee's games offer information states as strings "
                                      "only: their length grows with the game")
        if state._game is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = state._game.observation(player)

    def string_from(self, state, player):
        if state._game is None:
            return str(state)
        if self._recall:
            return state._told[player].text()
        return state._game.render(seat=player)


def _game_class(class_name, name, game_id, defaults, fewest, most, hidden):
    game_type = _game_type(name, game_id, defaults, fewest, most, hidden)
    return type(class_name, (RefereeGame,), {"game_type": game_type, "game_id": game_id})


# A class per game (OpenSpiel keeps what it registers until the interpreter has gone: a function
# kept so crashes Python as it exits, a class does not).
DvonnGame = _game_class("DvonnGame", *_GAMES[0])
DoubleDutchGame = _game_class("DoubleDutchGame", *_GAMES[1])
PegsGame = _game_class("PegsGame", *_GAMES[2])
WyxGame = _game_class("WyxGame", *_GAMES[3])
DoubleGame = _game_class("DoubleGame", *_GAMES[4])

for _class in (DvonnGame, DoubleDutchGame, PegsGame, WyxGame, DoubleGame):
    pyspiel.register_game(_class.game_type, _class)
