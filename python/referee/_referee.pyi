"""The exact rules of DVONN, Double Dutch, Pegs, Wyx and DOUBLE: the referee's own Rust rules."""

from typing import Any, Dict, List, Optional, Tuple

class RefereeError(ValueError):
    """Anything the referee refuses: the base of ParseError, IllegalMove and SetupError."""

class ParseError(RefereeError):
    """A text that is no move of the game at all, wherever it is played."""

class IllegalMove(RefereeError):
    """A move of the game that the rules forbid here; the message says why."""

class SetupError(RefereeError):
    """A game that cannot be set up as asked: unknown game, variant or seat count."""

def games() -> List[str]:
    """The ids of the games, as `Game` takes them."""

def rules_text(game_id: str) -> str:
    """The rules of a game in words, as `referee rules GAME` prints them."""

class Game:
    """A game of DVONN, Double Dutch, Pegs, Wyx or DOUBLE, from its start or a record.

    Chance events (Wyx's rack, DOUBLE's deal and draws) come from `seed` and are played as soon as
    they are due, so a seat is always to move until the game is over; unless `explicit_chance`,
    when the caller plays DOUBLE's cards itself. `copy()` is cheap: search by copying, playing, and
    throwing the copy away."""

    def __init__(
        self,
        game_id: str,
        variant: Optional[str] = None,
        seats: Optional[int] = None,
        seed: int = 0,
        setup: Optional[str] = None,
        explicit_chance: bool = False,
    ) -> None:
        """Sets up `game_id` (`games()` lists them) with its variant, number of seats, the seed of
        its chance events, and (Wyx) the public rack as records store it in `setup`.
        Raises SetupError."""
    @staticmethod
    def from_record(record: str, plies: Optional[int] = None) -> "Game":
        """The position of a record (one line of a `--out` file, as text) after `plies` plies
        (all when None), every ply checked; a ply that does not replay raises ParseError or
        IllegalMove naming it."""
    @property
    def id(self) -> str:
        """The game's id."""
    @property
    def variant(self) -> Optional[str]:
        """The variant, or None."""
    @property
    def seats(self) -> int:
        """The number of seats."""
    @property
    def ply(self) -> int:
        """Plies played so far, chance plies included."""
    @property
    def seed(self) -> int:
        """The seed of the chance events."""
    @property
    def explicit_chance(self) -> bool:
        """Whether the game is played with explicit chance (see `chance_due`)."""
    def chance_due(self) -> bool:
        """Whether a chance ply is due (only with `explicit_chance`): then `to_move()` is None,
        `legal_moves()` lists the cards that may leave the stock, each as likely as any other, and
        `play()` plays the one drawn."""
    def seeded_chance(self) -> Optional[str]:
        """The chance ply the game's seed draws here (None when none is due): the card a match of
        the referee's with this seed would play, so a game of explicit chance can follow it."""
    def max_plies(self) -> int:
        """An upper bound on the plies (chance plies included) of any game from this one's start,
        worked out from the rules: the horizon OpenSpiel's `max_game_length` asks for."""
    def to_move(self) -> Optional[int]:
        """The seat to move (from 0), or None when the game is over."""
    def move_space(self) -> Tuple[List[str], List[str]]:
        """Every move the game, as set up, can ever list, each once in a fixed order: the seats'
        moves, and chance's outcomes (empty where chance acts only at setup). Every position's
        legal moves are among them; a move's number is its place in its list (the numbered action
        space of OpenSpiel and PettingZoo)."""
    def legal_moves(self) -> List[str]:
        """The legal moves of the seat to move, as the protocol writes them (a pass is `pass`)."""
    def play(self, move: str) -> str:
        """Plays `move` (any case) for the seat to move and returns it as the game writes it.
        Raises ParseError for a text that is no move of the game, IllegalMove (with the reason)
        for a move the rules forbid here; either way the game is unchanged."""
    def tell(self, move: str) -> List[str]:
        """Plays `move` as `play` does, and returns what the referee tells each seat's engine of it
        (and of the chance plies that follow it from the seed), in seat order, one text of lines
        per seat: `play 1 C1`; `event draw 0 c31:RYB` to seat 0 but `event draw 0` to the others;
        `event round N points=.. totals=..` when a round of DOUBLE ends."""
    def newgame_line(self, seat: int) -> str:
        """The `newgame` line the referee sends `seat`'s engine at the start, without its seed and
        clock: the game, variant, seats, the seat, and the public setup (Wyx's rack)."""
    def record(self, names: Optional[List[str]] = None,
               tags: Optional[Dict[str, str]] = None) -> str:
        """The game so far as a record (one line of a `--out` file, as JSON text) that `referee
        validate`, `ratings`, `view` and `Game.from_record` read: its seats named `names` (`seat
        0`, ... when None), `tags` kept as they are, every ply with the seat that played it (none
        for chance), and the result once the game is over. Its chance plies replay from the seed
        when they came from it (not with explicit chance, unless they followed
        `seeded_chance()`). A seat's guess (`SeatView.game`) has no known history to record."""
    def resample(self, seat: int, seed: int) -> "Game":
        """A copy in which the cards `seat` cannot see (DOUBLE: the other hands and the stock)
        are dealt anew from `seed`, what `seat` knows unchanged: a world a determinized or
        information-set search samples. Other games are copied as they are. The copy keeps this
        game's explicit chance and has no known history (it cannot be pickled or recorded)."""
    def copy(self) -> "Game":
        """An independent copy, to search from."""
    def __copy__(self) -> "Game": ...
    def __deepcopy__(self, memo: Any) -> "Game": ...
    def is_over(self) -> bool:
        """Whether the game is over."""
    def winners(self) -> List[int]:
        """The winning seats (several share a win; all of them for a draw); empty while it goes
        on."""
    def outcome(self) -> str:
        """The result in words (`ongoing`, `draw`, `seat 1 wins`, ...)."""
    def scores(self) -> List[int]:
        """Each seat's score by the rules, in seat order (DVONN: pieces controlled; DOUBLE: points
        so far, lowest best)."""
    def perft(self, depth: int, budget: int = 200_000_000) -> int:
        """The number of move paths `depth` plies deep (chance plies count as moves), expanding at
        most `budget` positions (RefereeError past it). It runs without the interpreter lock, so
        other threads run meanwhile, and Ctrl-C stops it between the first ply's moves."""
    def render(self, seat: Optional[int] = None) -> str:
        """The position as text, as everyone sees it or (DOUBLE) as `seat` does."""
    def observation_shape(self) -> List[int]:
        """The shape of `observation()`'s tensor, the same at every position of the game as set
        up: planes, rows and columns for the board games, one length for DOUBLE."""
    def observation(self, seat: int) -> List[float]:
        """The position as numbers from 0 to 1, as `seat` may see it, flat in the order of
        `observation_shape()` (last index fastest): for learning agents. Seats are counted from
        `seat`, its own first; in DOUBLE it shows `seat`'s hand and only the size of the others.
        python/README.md gives each game's layout."""
    def svg(self, seat: Optional[int] = None) -> str:
        """The position as an SVG picture, as everyone sees it or (DOUBLE) as `seat` does."""
    def public_setup(self) -> Optional[str]:
        """The public layout drawn at setup (Wyx's rack, as records store it), or None."""

class SeatView:
    """One seat's view of a game, kept from what the engine protocol tells that seat: `play SEAT
    MOVE` lines are `follow(SEAT, MOVE)`, `event TEXT` lines (DOUBLE's deals and draws, as the
    seat is told them) are `follow(None, TEXT)`. In DOUBLE the cards the seat cannot see are
    guesses, so `legal_moves()` are exactly its own moves when it is to act."""

    def __init__(
        self,
        game_id: str,
        variant: Optional[str] = None,
        seats: Optional[int] = None,
        seat: int = 0,
        setup: Optional[str] = None,
    ) -> None:
        """The view of `seat` of the game `newgame` would start: the game's id, variant, seats
        and (Wyx) the public rack as `newgame`'s `setup=` gives it. Raises SetupError."""
    @property
    def seat(self) -> int:
        """The seat whose view this is."""
    def follow(self, seat: Optional[int], text: str) -> str:
        """Applies what the seat was told: a seat's move (`seat` a number) or a chance event
        (`seat` None). Returns the ply as the game writes it. Raises ParseError for a move that is
        no move of the game, IllegalMove for one that cannot be played here or an event not
        expected; the view is then unchanged."""
    def legal_moves(self) -> List[str]:
        """This seat's legal moves when it is to act; empty otherwise."""
    def to_move(self) -> Optional[int]:
        """The seat to act, None for a chance event or when the game is over."""
    def chance_due(self) -> bool:
        """Whether a chance event (an `event` line) is due before a seat acts."""
    def is_over(self) -> bool:
        """Whether the game is over."""
    def game(self, seed: Optional[int] = None) -> Game:
        """A copy of the game as this seat knows it, to search from. In DOUBLE the cards it cannot
        see are guesses: the view's own, or, given a `seed`, dealt anew from it (a different guess
        for each seed, as a determinized search wants); the copy's chance events come from `seed`
        (0 when None)."""
    def render(self) -> str:
        """The position as this seat sees it."""
