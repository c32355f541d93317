//! `AnyGame`: the list of games, written once, and one enum that dispatches over them.

use super::{double, double_dutch, dvonn, pegs, wyx};
use std::fmt;

use crate::rules::game::{
    Actor, Allowed, Game, IllegalMove, MoveSpace, Outcome, ParseMoveError, Places, Seat, Setup,
    SetupError, Viewer,
};

/// Declares `AnyGame`, `AnyMove` and their dispatch from one list of `Variant(Type) = "id"`.
macro_rules! games {
    ($($variant:ident($game:ty) = $id:literal),+ $(,)?) => {
        /// Any game, chosen at run time.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum AnyGame {
            $(
                #[doc = concat!("`", $id, "`")]
                $variant($game),
            )+
        }

        /// A move of any game; it belongs to the game that parsed it.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum AnyMove {
            $(
                #[doc = concat!("A move of `", $id, "`.")]
                $variant(<$game as Game>::Move),
            )+
        }

        /// The ids of the implemented games.
        pub const GAMES: &[&str] = &[$($id),+];

        /// The rules page of game `id` (`docs/rules/ID.md`, compiled in); `None` for an unknown
        /// game.
        pub fn rules_page(id: &str) -> Option<&'static str> {
            match id {
                $($id => Some(include_str!(concat!("../../docs/rules/", $id, ".md"))),)+
                _ => None,
            }
        }

        impl fmt::Display for AnyMove {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    $(AnyMove::$variant(mv) => mv.fmt(f),)+
                }
            }
        }

        impl AnyGame {
            /// Sets up game `id` (as typed after `newgame`).
            pub fn create(id: &str, setup: &Setup) -> Result<AnyGame, SetupError> {
                match id.to_ascii_lowercase().as_str() {
                    $($id => Ok(AnyGame::$variant(<$game>::new(setup)?)),)+
                    _ => Err(SetupError::UnknownGame(id.to_owned())),
                }
            }

            /// The variants and seat counts game `id` allows.
            pub fn allowed(id: &str) -> Option<&'static Allowed> {
                match id.to_ascii_lowercase().as_str() {
                    $($id => Some(&<$game>::ALLOWED),)+
                    _ => None,
                }
            }

            /// What a finished game of `id` says of its seats' places beyond its winners.
            pub fn places(id: &str) -> Option<Places> {
                match id.to_ascii_lowercase().as_str() {
                    $($id => Some(<$game as Game>::PLACES),)+
                    _ => None,
                }
            }
        }

        /// Calls the same method on whichever game is inside.
        macro_rules! dispatch {
            ($self_:expr, $g:ident => $body:expr) => {
                match $self_ {
                    $(AnyGame::$variant($g) => $body,)+
                }
            };
        }

        /// Calls the same method on whichever game is inside with a move of its own kind, or
        /// gives `$other` for a move of another game.
        macro_rules! dispatch_move {
            ($self_:expr, $mv_:expr, ($g:ident, $m:ident) => $body:expr, $other:expr) => {
                match ($self_, $mv_) {
                    $((AnyGame::$variant($g), AnyMove::$variant($m)) => $body,)+
                    #[allow(unreachable_patterns)]
                    _ => $other,
                }
            };
        }

        // For the games' pictures (the render layer's board module), which dispatch over the
        // same list.
        #[allow(unused_imports)]
        pub(crate) use {dispatch, dispatch_move};

        impl Game for AnyGame {
            type Move = AnyMove;

            /// DVONN; use [`AnyGame::create`] to choose the game.
            fn new(setup: &Setup) -> Result<Self, SetupError> {
                AnyGame::create("dvonn", setup)
            }

            fn move_space(&self) -> MoveSpace<AnyMove> {
                match self {
                    $(AnyGame::$variant(g) => {
                        let space = g.move_space();
                        MoveSpace {
                            seats: space.seats.into_iter().map(AnyMove::$variant).collect(),
                            chance: space.chance.into_iter().map(AnyMove::$variant).collect(),
                        }
                    })+
                }
            }

            fn max_plies(&self) -> usize {
                dispatch!(self, g => g.max_plies())
            }

            fn id(&self) -> &'static str {
                dispatch!(self, g => g.id())
            }

            fn variant(&self) -> Option<&'static str> {
                dispatch!(self, g => g.variant())
            }

            fn seats(&self) -> usize {
                dispatch!(self, g => g.seats())
            }

            fn seat_colour(&self, seat: Seat) -> Option<&'static str> {
                dispatch!(self, g => g.seat_colour(seat))
            }

            fn ply(&self) -> usize {
                dispatch!(self, g => g.ply())
            }

            fn to_move(&self) -> Option<Actor> {
                dispatch!(self, g => g.to_move())
            }

            fn parse_move(&self, text: &str) -> Result<AnyMove, ParseMoveError> {
                match self {
                    $(AnyGame::$variant(g) => g.parse_move(text).map(AnyMove::$variant),)+
                }
            }

            fn legal_moves(&self, out: &mut Vec<AnyMove>) {
                match self {
                    $(AnyGame::$variant(g) => {
                        let mut moves = Vec::new();
                        g.legal_moves(&mut moves);
                        out.extend(moves.into_iter().map(AnyMove::$variant));
                    })+
                }
            }

            fn count_legal(&self) -> usize {
                dispatch!(self, g => g.count_legal())
            }

            fn check(&self, mv: &AnyMove) -> Result<(), IllegalMove> {
                match (self, mv) {
                    $((AnyGame::$variant(g), AnyMove::$variant(mv)) => g.check(mv),)+
                    #[allow(unreachable_patterns)]
                    _ => Err(IllegalMove {
                        text: mv.to_string(),
                        reason: format!("not a move of {}", self.id()),
                    }),
                }
            }

            fn play_unchecked(&mut self, mv: &AnyMove) {
                match (self, mv) {
                    $((AnyGame::$variant(g), AnyMove::$variant(mv)) => g.play_unchecked(mv),)+
                    #[allow(unreachable_patterns)]
                    _ => debug_assert!(false, "a move of another game"),
                }
            }

            fn scores(&self) -> Vec<i64> {
                dispatch!(self, g => g.scores())
            }

            fn outcome(&self) -> Outcome {
                dispatch!(self, g => g.outcome())
            }

            fn render(&self, viewer: Viewer) -> String {
                dispatch!(self, g => g.render(viewer))
            }

            fn public_setup(&self) -> Option<String> {
                dispatch!(self, g => g.public_setup())
            }

            fn drawn_from_seed(&self) -> bool {
                dispatch!(self, g => g.drawn_from_seed())
            }

            fn hides_information(&self) -> bool {
                dispatch!(self, g => g.hides_information())
            }

            fn rounds_finished(&self) -> usize {
                dispatch!(self, g => g.rounds_finished())
            }

            fn forfeit_winners(&self, loser: Seat) -> Vec<Seat> {
                dispatch!(self, g => g.forfeit_winners(loser))
            }

            fn resolve(&self, mv: &AnyMove) -> AnyMove {
                match (self, mv) {
                    $((AnyGame::$variant(g), AnyMove::$variant(m)) => AnyMove::$variant(g.resolve(m)),)+
                    #[allow(unreachable_patterns)]
                    _ => *mv,
                }
            }

            fn seeded_chance(&self, seed: u64) -> Option<AnyMove> {
                match self {
                    $(AnyGame::$variant(g) => g.seeded_chance(seed).map(AnyMove::$variant),)+
                }
            }

            fn visible_text(&self, mv: &AnyMove, viewer: Viewer) -> String {
                match (self, mv) {
                    $((AnyGame::$variant(g), AnyMove::$variant(mv)) => g.visible_text(mv, viewer),)+
                    #[allow(unreachable_patterns)]
                    _ => mv.to_string(),
                }
            }
        }

        /// Runs `perft` on the concrete game inside, so the hot loop is not dispatched per node.
        pub fn perft(game: &AnyGame, depth: u32) -> u64 {
            dispatch!(game, g => crate::rules::game::perft(g, depth))
        }

        /// Runs `perft_within` on the concrete game inside.
        pub fn perft_within(game: &AnyGame, depth: u32, budget: &mut u64) -> Option<u64> {
            dispatch!(game, g => crate::rules::game::perft_within(g, depth, budget))
        }
    };
}

games! {
    Dvonn(dvonn::Dvonn) = "dvonn",
    DoubleDutch(double_dutch::DoubleDutch) = "double-dutch",
    Pegs(pegs::Pegs) = "pegs",
    Wyx(wyx::Wyx) = "wyx",
    Double(double::Double) = "double",
}
