//! The replay pages of finished games (`/game/N`), each drawn once and kept within a byte budget:
//! a request for a page not yet drawn waits while the server goes on answering others, and the
//! pages are drawn one at a time between its looks at the sockets, so that a flood of requests
//! for pages holds up no other client and every page in memory is one this keeps count of.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;

use super::http::Reply;

/// The most bytes of drawn pages kept, those clients are being sent included; one page more may
/// be drawn past it when no other is held.
pub const BUDGET: usize = 16 << 20;

/// The drawn pages, the pages asked for and not yet drawn, and a clock for the least recently
/// used.
#[derive(Default)]
pub struct Pages {
    drawn: HashMap<usize, (Reply, u64)>,
    bytes: usize,
    wanted: VecDeque<usize>,
    /// The numbers in `wanted`: a thousand clients waiting ask each turn, so asking is O(1).
    queued: HashSet<usize>,
    clock: u64,
    /// What the numbers are numbers of: the run whose games they count (see [`Pages::follow`]).
    run: u64,
}

impl Pages {
    /// Forgets every page when the games' numbers name other games (the records file was
    /// replaced: `run` changed).
    pub fn follow(&mut self, run: u64) {
        if run != self.run {
            *self = Pages {
                run,
                ..Pages::default()
            };
        }
    }

    /// Page `number`, if drawn; if not, it is drawn in its turn (see [`Pages::draw_next`]).
    pub fn get(&mut self, number: usize) -> Option<Reply> {
        self.clock += 1;
        if let Some((reply, used)) = self.drawn.get_mut(&number) {
            *used = self.clock;
            return Some(reply.clone());
        }
        if self.queued.insert(number) {
            self.wanted.push_back(number);
        }
        None
    }

    /// Draws the page asked for first, when the budget has room for it once the least recently
    /// used pages no client holds are let go; whether another page waits and could be drawn.
    pub fn draw_next(&mut self, draw: impl FnOnce(usize) -> Reply) -> bool {
        let Some(&number) = self.wanted.front() else {
            return false;
        };
        while self.bytes >= BUDGET && self.forget_one() {}
        if self.bytes >= BUDGET {
            // Every page kept is being sent: the next waits until one is let go.
            return false;
        }
        self.wanted.pop_front();
        self.queued.remove(&number);
        let reply = draw(number);
        self.bytes += reply.body.len();
        self.drawn.insert(number, (reply, self.clock));
        !self.wanted.is_empty()
    }

    /// Lets go of the least recently used page no client holds; `false` if there is none.
    fn forget_one(&mut self) -> bool {
        let free = (self.drawn.iter())
            .filter(|(_, (reply, _))| Arc::strong_count(&reply.body) == 1)
            .min_by_key(|(_, (_, used))| *used)
            .map(|(&number, _)| number);
        let Some((reply, _)) = free.and_then(|number| self.drawn.remove(&number)) else {
            return false;
        };
        self.bytes -= reply.body.len();
        true
    }

    /// The bytes of the pages kept.
    #[cfg(test)]
    fn bytes(&self) -> usize {
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(bytes: usize) -> Reply {
        Reply {
            status: 200,
            kind: "text/html",
            body: Arc::new(vec![b'x'; bytes]),
        }
    }

    #[test]
    fn a_page_is_drawn_once_and_in_its_turn() {
        let mut pages = Pages::default();
        let mut drawn = Vec::new();
        assert!(pages.get(3).is_none());
        assert!(pages.get(1).is_none());
        assert!(pages.get(3).is_none());
        assert!(pages.draw_next(|n| {
            drawn.push(n);
            page(10)
        }));
        assert!(!pages.draw_next(|n| {
            drawn.push(n);
            page(10)
        }));
        assert!(!pages.draw_next(|_| unreachable!("nothing is wanted")));
        assert_eq!(drawn, [3, 1]);
        assert_eq!(pages.get(3).map(|r| r.body.len()), Some(10));
        assert_eq!(pages.bytes(), 20);
    }

    #[test]
    fn the_budget_lets_go_of_pages_nobody_holds_and_waits_for_those_held() {
        let mut pages = Pages::default();
        let half = BUDGET / 2;
        let mut held = Vec::new();
        for number in 1..=2 {
            assert!(pages.get(number).is_none());
            pages.draw_next(|_| page(half));
            held.push(pages.get(number).expect("drawn"));
        }
        // Both pages are being sent: the third waits.
        assert!(pages.get(3).is_none());
        assert!(!pages.draw_next(|_| unreachable!("no room")));
        // One is sent: it makes room.
        held.remove(0);
        pages.draw_next(|_| page(half));
        assert!(pages.get(3).is_some());
        assert!(pages.bytes() <= BUDGET);
        assert!(pages.get(1).is_none(), "page 1 was let go");
        assert!(pages.get(2).is_some(), "page 2 is held");
    }

    #[test]
    fn another_run_forgets_the_pages() {
        let mut pages = Pages::default();
        pages.get(1);
        pages.draw_next(|_| page(5));
        pages.follow(0);
        assert!(pages.get(1).is_some());
        pages.follow(1);
        assert!(pages.get(1).is_none());
    }
}
