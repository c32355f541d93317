"""What a finished game gives each seat, for the AI toolkits' adapters: zero-sum, so that any
algorithm written for zero-sum games reads it."""


def returns(game):
    """Each seat's return, in seat order: 0 for everyone while the game goes on or when it is a
    draw; otherwise the winners share +1 and the other seats share -1 (two seats: +1 and -1)."""
    seats = game.seats
    winners = set(game.winners())
    if not game.is_over() or len(winners) in (0, seats):
        return [0.0] * seats
    win, loss = 1.0 / len(winners), -1.0 / (seats - len(winners))
    return [win if seat in winners else loss for seat in range(seats)]
