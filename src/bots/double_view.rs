//! The DOUBLE table as one seat of a built-in bot keeps it: its own hand and everything public
//! exact, the cards it cannot see filled in with guesses, each told ply applied, and the guesses
//! dealt again at random for each playout of the search.

use rand::seq::SliceRandom;

use crate::rules::double::{Card, Double, Move, Pending, Place};
use crate::rules::game::{Actor, Game, Seat};

/// Applies what the viewer was told: an event (`deal 2`, `draw 0 c17:RYB`, `start c05:RYG`) or
/// the action of seat `actor` (`left c31:RYB`). A hidden card is filled in with any card the
/// viewer cannot tell from it, and a card that turns out to be elsewhere than guessed is swapped
/// with one that is where it should be.
pub fn follow(view: &mut Double, actor: Option<Seat>, text: &str) -> Result<(), String> {
    let viewer = view.viewer().map(usize::from).ok_or("not a seat's view")?;
    let words: Vec<&str> = text.split_whitespace().collect();
    let mv = match words.as_slice() {
        ["deal" | "draw", seat] => {
            let seat: u8 = seat
                .parse()
                .ok()
                .filter(|&s| usize::from(s) < view.seats())
                .ok_or_else(|| format!("`{text}`: not a seat of this game"))?;
            let card = *view.drawable().first().ok_or("no card in the stock")?;
            match words[0] {
                "deal" => Move::Deal { seat, card },
                _ => Move::Draw { seat, card },
            }
        }
        _ => view.parse_move(text).map_err(|e| e.to_string())?,
    };
    // A card leaving the stock must be in it: if the guesses put it elsewhere, swap it back.
    if let Move::Deal { card, .. } | Move::Draw { card, .. } | Move::Start { card } = mv
        && !view.drawable().contains(&card)
    {
        relocate(view, viewer, card, Place::Stock)?;
    }
    match mv {
        Move::Deal { seat, card } | Move::Draw { seat, card } => match (view.due(), mv) {
            (Some(Pending::Deal(due)), Move::Deal { .. })
            | (Some(Pending::Draw(due)), Move::Draw { .. })
                if due == seat =>
            {
                view.play_unchecked(&mv);
            }
            (None, Move::Draw { .. }) if seat == view.seat_to_act() => {
                view.told_penalty(seat, card);
            }
            _ => return Err(format!("`{text}` is not the card this view expects")),
        },
        Move::Start { .. } => {
            if view.due() != Some(Pending::Start) {
                return Err(format!("`{text}`: no start card is due"));
            }
            view.play_unchecked(&mv);
        }
        _ => {
            if view.to_move() == Some(Actor::Chance) {
                return Err(format!("`{text}`: a card is due first"));
            }
            let seat = usize::from(view.seat_to_act());
            if actor.is_some_and(|a| a != seat) {
                return Err(format!(
                    "`{text}` is seat {} acting, but this view has seat {seat} to act",
                    actor.unwrap_or(seat)
                ));
            }
            if seat == viewer {
                return view.try_play(&mv).map_err(|e| e.to_string());
            }
            let mv = view.resolve(&mv);
            if let Move::Cover { card, .. } | Move::Single { card, .. } = mv {
                relocate(view, viewer, card, Place::Hand(seat))?;
            }
            // Another seat's obligations depend on its hidden hand: follow what it did.
            view.play_unchecked(&mv);
        }
    }
    Ok(())
}

/// Moves `card` to `to` by swapping it with a card there that `viewer` cannot tell apart from it
/// (in another seat's hand or in the stock): both are unknown to the viewer, so the table stays as
/// consistent with what the viewer knows as it was.
fn relocate(view: &mut Double, viewer: usize, card: Card, to: Place) -> Result<(), String> {
    let from = view
        .place_of(card)
        .filter(|&p| p != Place::Hand(viewer))
        .ok_or_else(|| format!("{card} cannot be where the event says"))?;
    if from == to {
        return Ok(());
    }
    let partner = match to {
        Place::Stock => view
            .drawable()
            .into_iter()
            .find(|&c| view.place_of(c) == Some(Place::Stock)),
        Place::Hand(s) if s != viewer => view.hand(s).first().copied(),
        Place::Hand(_) => None,
    }
    .ok_or_else(|| format!("no unknown card to exchange with {card}"))?;
    view.exchange(card, partner);
    Ok(())
}

/// A possible world ([`Double::possible_world`]) in which the cards `viewer` cannot see are dealt
/// anew at random.
pub fn redeal_hidden(view: &Double, viewer: usize, rng: &mut impl rand::Rng) -> Double {
    view.redealt(viewer, |cards| cards.shuffle(rng))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game::Viewer;

    /// Games played through every seat's view: 400 by default (a view once went wrong only at
    /// game 55), more with `REFEREE_VIEW_GAMES`.
    fn games() -> u64 {
        std::env::var("REFEREE_VIEW_GAMES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(400)
    }

    /// Every seat's view, told what the referee tells that seat, keeps the true hand sizes, stock
    /// and round, its own exact hand, and, when the seat is to act, exactly its legal actions.
    #[test]
    fn every_seats_view_follows_the_game() {
        for (game_number, seats) in (0..games()).map(|g| (g, 2 + (g % 5) as u8)) {
            let mut truth = Double::start(seats);
            let mut views: Vec<Double> = (0..seats).map(|v| Double::seen_by(seats, v)).collect();
            // The test's own random choices; rand's stream may change with its version, which
            // changes the games played, not what they check.
            let mut rng =
                <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(game_number);
            for ply in 0..3000 {
                let Some(actor) = truth.to_move() else { break };
                let mv = match actor {
                    Actor::Chance => truth.seeded_chance(game_number).unwrap(),
                    Actor::Seat(_) => {
                        let mut moves = Vec::new();
                        truth.legal_moves(&mut moves);
                        moves[rand::RngExt::random_range(&mut rng, 0..moves.len())]
                    }
                };
                let texts: Vec<String> = (0..usize::from(seats))
                    .map(|v| match actor {
                        Actor::Chance => truth.visible_text(&mv, Viewer::Seat(v)),
                        Actor::Seat(_) => mv.to_string(),
                    })
                    .collect();
                truth.try_play(&mv).unwrap();
                if truth.outcome() != crate::rules::game::Outcome::Ongoing {
                    // A view never ends the match: the other seats' penalties are hidden from it.
                    break;
                }
                for (v, view) in views.iter_mut().enumerate() {
                    let actor = match actor {
                        Actor::Seat(s) => Some(s),
                        Actor::Chance => None,
                    };
                    follow(view, actor, &texts[v])
                        .unwrap_or_else(|e| panic!("game {game_number} ply {ply} seat {v}: {e}"));
                    let sizes = |g: &Double| {
                        (0..usize::from(seats))
                            .map(|s| g.hand(s).len())
                            .collect::<Vec<_>>()
                    };
                    assert_eq!(
                        (sizes(view), view.stock_size(), view.round()),
                        (sizes(&truth), truth.stock_size(), truth.round()),
                        "game {game_number} ply {ply} seat {v}: hand sizes after {mv}"
                    );
                    let mut own = view.hand(v).to_vec();
                    let mut real = truth.hand(v).to_vec();
                    own.sort();
                    real.sort();
                    assert_eq!(
                        own, real,
                        "game {game_number} ply {ply} seat {v}: hand after {mv}"
                    );
                    if truth.to_move() == Some(Actor::Seat(v)) {
                        assert_eq!(
                            view.to_move(),
                            truth.to_move(),
                            "game {game_number} ply {ply} seat {v}: to move after {mv}"
                        );
                        let texts = |g: &Double| {
                            let mut moves = Vec::new();
                            g.legal_moves(&mut moves);
                            moves.iter().map(ToString::to_string).collect::<Vec<_>>()
                        };
                        let (mut a, mut b) = (texts(view), texts(&truth));
                        a.sort();
                        b.sort();
                        assert_eq!(a, b, "game {game_number} ply {ply} seat {v}: own actions");
                    }
                }
            }
        }
    }
}
