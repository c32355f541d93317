use referee::bots::{
    Strategy, choose,
    search::{Budget, search},
};
use referee::game::{Actor, Game, Outcome, Setup};
use referee::games::AnyGame;
use std::time::{Duration, Instant};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args[1].parse().unwrap();
    let games: u64 = args[2].parse().unwrap();
    let mut wins = 0;
    let mut draws = 0;
    let start = Instant::now();
    for g in 0..games {
        let search_seat = (g % 2) as usize;
        let mut game = AnyGame::create("dvonn", &Setup::default()).unwrap();
        let mut history = Vec::new();
        while let Some(Actor::Seat(seat)) = game.to_move() {
            let mv = if seat == search_seat {
                search(
                    &game,
                    Budget {
                        deadline: Instant::now() + Duration::from_secs(100),
                        max_depth: depth,
                    },
                )
                .unwrap()
                .best
            } else {
                choose(Strategy::Random, &game, &history, g, Duration::ZERO).unwrap()
            };
            game.try_play(&mv).unwrap();
            history.push(mv.to_string());
        }
        match game.outcome() {
            Outcome::Winners(w) if w == vec![search_seat] => wins += 1,
            Outcome::Draw => draws += 1,
            _ => {}
        }
    }
    println!(
        "depth {depth}: {wins} wins {draws} draws of {games} in {:?}",
        start.elapsed()
    );
}
