//! The turn loop of one game: engines asked in turn under their clocks, every ply told to every
//! engine, faults adjudicated, openings, chance and undo.

use std::collections::VecDeque;
use std::mem::take;
use std::time::{Duration, Instant};

use crate::play::clock::{Clock, TimeControl, millis};
use crate::play::codecup::CodeCupSeat;
use crate::play::config::{MatchConfig, OnFault, PROBE_KEY};
use crate::play::openings::Opening;
use crate::play::openings::RANDOM_PLIES_STREAM;
use crate::play::player::Player;
use crate::play::schedule::Scheduled;
use crate::play::schedule::engine_seed;
use crate::play::spec::{EngineSpec, Proto};
use crate::protocol::{ClockKeys, Command, GameKeys, GenmoveLine, MoveAnswer, NewGame, PlayLine};
use crate::records::live::LiveEvent;
use crate::records::replay::Replay;
use crate::records::{End, Ply, Verdict};
use crate::rules::AnyMove;
use crate::rules::game::{Actor, Game, MoveError, Viewer};
use crate::rules::seeded::Stream;

use crate::play::faults::{Fault, fault, fault_of, with_stderr};

/// The stream of a game's generator from which the referee picks moves for a substituted seat.
const SUBSTITUTE_STREAM: u64 = 1 << 63;

/// Under a CPU clock, how many times its CPU time an engine may take in time that passes before
/// it loses by stall: one that waits instead of thinking uses no CPU time.
pub const CPU_CLOCK_PATIENCE: u32 = 10;

/// How many moves a list holds, as a bound for `Stream::below`: a game never offers 2^32 moves.
fn count<T>(moves: &[T]) -> u32 {
    u32::try_from(moves.len()).expect("fewer than 2^32 legal moves")
}

/// One game in progress.
pub(super) struct Table<'a, P: Player> {
    config: &'a MatchConfig,
    /// The game's number in the schedule.
    index: usize,
    replay: &'a mut Replay,
    engines: &'a mut [P],
    clocks: Vec<Clock>,
    healthy: &'a mut [bool],
    rng: Stream,
    /// The game's opening, and how many of its plies were played.
    opening: Opening<'a>,
    opening_played: usize,
    opening_rng: Stream,
    /// The rounds whose end the engines were told of, and the totals they were told.
    rounds_told: usize,
    totals_told: Vec<i64>,
    /// The seats whose engines speak the CodeCup protocol.
    codecup: Vec<Option<CodeCupSeat>>,
    /// The human seats (`--engine human`), which may take a move back in a game without a clock.
    human: Vec<bool>,
    /// The engines' names in seat order, as a human seat is told them (`names=a,b`; no space or
    /// comma inside a name), when a human sits at the table.
    names: Option<String>,
    /// Each seat's engine's own `newgame` keys (`nodes=1000 option.Hash=64`).
    newgame_keys: Vec<Vec<(String, String)>>,
    /// Plies to play again after an undo, told to the engines as they are played.
    redo: VecDeque<Ply>,
    /// The last move's text, the line telling it, the `genmove` line and its clock keys: kept
    /// from ply to ply, so a ply allocates none of them.
    move_text: String,
    line: String,
    genmove_line: String,
    clock_keys: ClockKeys,
    /// The live file's start event for this game, when there is a live file, and how many plies
    /// it has been told.
    live_start: Option<LiveEvent>,
    live_told: usize,
    live_clocks: Vec<f64>,
}

impl<'a, P: Player> Table<'a, P> {
    /// The table of game `scheduled`, its engines seated in order, their clocks not yet running.
    pub(super) fn new(
        config: &'a MatchConfig,
        scheduled: &Scheduled,
        replay: &'a mut Replay,
        engines: &'a mut [P],
        healthy: &'a mut [bool],
    ) -> Table<'a, P> {
        let specs: Vec<&EngineSpec> = (scheduled.engines.iter())
            .map(|&e| &config.engines[e])
            .collect();
        let seed = scheduled.seed;
        Table {
            config,
            index: scheduled.index,
            replay,
            engines,
            clocks: (specs.iter())
                .map(|spec| Clock::new(spec.tc.unwrap_or(config.tc)))
                .collect(),
            healthy,
            rng: Stream::new(seed, SUBSTITUTE_STREAM),
            opening: config.openings.of_group(scheduled.group),
            opening_played: 0,
            opening_rng: Stream::new(seed, RANDOM_PLIES_STREAM),
            rounds_told: 0,
            totals_told: vec![0; specs.len()],
            codecup: (specs.iter())
                .map(|spec| (spec.proto == Proto::CodeCup).then(CodeCupSeat::default))
                .collect(),
            human: specs.iter().map(|spec| spec.command.terminal).collect(),
            names: specs.iter().any(|spec| spec.command.terminal).then(|| {
                (specs.iter())
                    .map(|spec| spec.command.name.replace([' ', ',', '\t'], "_"))
                    .collect::<Vec<_>>()
                    .join(",")
            }),
            newgame_keys: specs.iter().map(|spec| spec.newgame_keys.clone()).collect(),
            redo: VecDeque::new(),
            move_text: String::new(),
            line: String::new(),
            genmove_line: String::new(),
            clock_keys: ClockKeys::default(),
            live_start: config.live.as_ref().map(|_| LiveEvent::Start {
                game: scheduled.index + 1,
                id: config.game.clone(),
                variant: config.variant.clone(),
                seats: specs.iter().map(|spec| spec.command.name.clone()).collect(),
                seed,
                duplicate: config.repeat,
            }),
            live_told: 0,
            live_clocks: Vec::new(),
        }
    }
}

impl<P: Player> Table<'_, P> {
    /// Plays to the end: `Ok` when the rules end the game, `Err` with the end when a resignation
    /// or a verdict does. The live file, if any, is told every ply and the end.
    pub(super) fn play(&mut self) -> Result<(), End> {
        if let (Some(live), Some(start)) = (&self.config.live, &self.live_start) {
            live.write(start);
        }
        let end = self.play_plies();
        if let Some(live) = &self.config.live {
            self.tell_live();
            live.write(&LiveEvent::End {
                game: self.index + 1,
            });
        }
        end
    }

    /// Tells the live file the plies played since it was last told; after an undo, the game
    /// from its start.
    fn tell_live(&mut self) {
        let (Some(live), Some(start)) = (&self.config.live, &self.live_start) else {
            return;
        };
        let plies = self.replay.plies();
        if plies < self.live_told {
            live.write(start);
            self.live_told = 0;
        }
        self.live_clocks.clear();
        if self.clocks.iter().all(Clock::runs) {
            let ms = |c: &Clock| c.remaining().as_micros() as f64 / 1000.0;
            self.live_clocks.extend(self.clocks.iter().map(ms));
        }
        for index in self.live_told..plies {
            if let Some(ply) = self.replay.ply(index) {
                live.ply(self.index + 1, ply, &self.live_clocks);
            }
        }
        self.live_told = plies;
    }

    fn play_plies(&mut self) -> Result<(), End> {
        self.new_games()?;
        loop {
            if self.config.live.is_some() {
                self.tell_live();
            }
            self.tell_rounds()?;
            let seat = match self.replay.game().to_move() {
                None => {
                    // The last ply is told before the game ends.
                    if let Err((at_fault, f)) = self.send_held(None) {
                        self.fault(at_fault, f)?;
                    }
                    return Ok(());
                }
                // After an undo: the plies kept, played again and told as before.
                Some(actor) if !self.redo.is_empty() => {
                    self.play_again(actor)?;
                    continue;
                }
                Some(Actor::Seat(seat)) if self.opening_played < self.opening.len() => {
                    if let Err((at_fault, f)) = self.opening_ply(seat) {
                        self.fault(at_fault, f)?;
                    }
                    continue;
                }
                Some(Actor::Seat(seat)) if !self.replay.is_substituted(seat) => seat,
                // A card leaves the stock as the seed dictates.
                Some(Actor::Chance) => {
                    let game = self.replay.game();
                    let mv = match game.seeded_chance(self.replay.seed()) {
                        Some(mv) => mv,
                        None => {
                            let mut moves = Vec::new();
                            game.legal_moves(&mut moves);
                            moves[self.rng.below(count(&moves)) as usize]
                        }
                    };
                    self.chance(&mv)?;
                    continue;
                }
                // The referee plays for a substituted seat: a random legal move.
                Some(Actor::Seat(seat)) => {
                    let mut moves = Vec::new();
                    self.replay.game().legal_moves(&mut moves);
                    let pick = moves[self.rng.below(count(&moves)) as usize].to_string();
                    self.replay.play(&pick).expect("a listed move is legal");
                    if let Err((at_fault, f)) = self.tell(seat) {
                        self.fault(at_fault, f)?;
                    }
                    continue;
                }
            };
            match self.turn(seat) {
                Ok(None) => {}
                Ok(Some(end)) => return Err(end),
                Err((at_fault, f)) => self.fault(at_fault, f)?,
            }
        }
    }

    /// Tells every engine the game begins: `newgame` with its seat, seed, clock and layout.
    pub(super) fn new_games(&mut self) -> Result<(), End> {
        // After an undo, what was held goes first, to every engine before any is waited for.
        if let Err((at_fault, f)) = self.send_held(None) {
            self.fault(at_fault, f)?;
        }
        let seats = self.engines.len();
        let game = self.replay.game();
        let variant = game.variant().map(str::to_owned);
        let id = game.id();
        let seed = self.replay.seed();
        let setup = game.public_setup();
        for seat in 0..seats {
            // A CodeCup engine starts a process per game and is told nothing before `Start`.
            if self.codecup[seat].is_some() {
                continue;
            }
            let mut keys = GameKeys {
                seats: Some(seats),
                seat: Some(seat),
                seed: Some(match &self.config.secret {
                    Some(secret) => secret.engine_seed(self.index, seat),
                    None => engine_seed(seed, self.index, seat),
                }),
                setup: setup.clone(),
                others: self.newgame_keys[seat].clone(),
                ..GameKeys::default()
            };
            self.clocks[seat].control().tell(&mut keys);
            // A person is told who sits where; engines are not (an engine could play its
            // opponent rather than the game).
            if let (true, Some(names)) = (self.human[seat], &self.names) {
                keys.others.push(("names".into(), names.clone()));
            }
            let command = Command::NewGame(NewGame {
                game: id.to_owned(),
                variant: variant.clone(),
                options: keys.into_options(),
            });
            let mut command = command.to_string();
            self.probe(&mut command);
            let deadline = Instant::now() + self.config.startup;
            if let Err(e) = self.engines[seat].request(&command, deadline) {
                self.fault(seat, fault_of(e, self.config.startup))?;
            }
        }
        Ok(())
    }

    /// Plays chance ply `mv` (a card leaving the stock); each engine learns what its seat may see
    /// of it, as information it may ignore.
    pub(super) fn chance(&mut self, mv: &AnyMove) -> Result<(), End> {
        let game = self.replay.game();
        let views: Vec<String> = (0..self.engines.len())
            .map(|seat| game.visible_text(mv, Viewer::Seat(seat)))
            .collect();
        self.replay
            .play(&mv.to_string())
            .expect("a chance ply the game offers is legal");
        for (seat, view) in views.into_iter().enumerate() {
            if self.replay.is_substituted(seat) {
                continue;
            }
            if let Err(e) = self.engines[seat].hold_inform(&Command::Event(view).to_string()) {
                self.fault(seat, fault_of(e, Duration::ZERO))?;
            }
        }
        Ok(())
    }

    /// Plays the next ply kept by an undo for `actor`, and tells the engines as the first time.
    pub(super) fn play_again(&mut self, actor: Actor) -> Result<(), End> {
        let Some(ply) = self.redo.pop_front() else {
            return Ok(());
        };
        let index = self.replay.game().ply();
        let Actor::Seat(seat) = actor else {
            let game = self.replay.game();
            let mv = game
                .parse_move(&ply.mv)
                .expect("a ply played before parses");
            return self.chance(&mv);
        };
        self.replay
            .play_again(&ply)
            .expect("a ply played before is legal");
        if index < self.opening_played {
            self.replay.end_opening();
        }
        if let Err((at_fault, f)) = self.tell(seat) {
            self.fault(at_fault, f)?;
        }
        Ok(())
    }

    /// Tells every engine still playing of a round that ended (DOUBLE): `event round N
    /// points=P0,P1,.. totals=T0,T1,..`, what everyone at the table sees when the hands are shown.
    pub(super) fn tell_rounds(&mut self) -> Result<(), End> {
        let game = self.replay.game();
        let finished = game.rounds_finished();
        if finished == self.rounds_told {
            return Ok(());
        }
        let totals = game.scores();
        let line = Command::round_event(finished, &self.totals_told, &totals).to_string();
        self.rounds_told = finished;
        self.totals_told = totals;
        for seat in 0..self.engines.len() {
            if self.replay.is_substituted(seat) {
                continue;
            }
            if let Err(e) = self.engines[seat].hold_inform(&line) {
                self.fault(seat, fault_of(e, Duration::ZERO))?;
            }
        }
        Ok(())
    }

    /// Marks `seat`'s engine for a restart. With `--on-fault substitute` in a game of three or
    /// more seats, the engine is killed and the referee plays on for the seat (`Ok`); otherwise the
    /// fault ends the game (`Err`, so `?` returns it from `play`).
    pub(super) fn fault(&mut self, seat: usize, mut fault: Fault) -> Result<(), End> {
        self.healthy[seat] = false;
        // A failed start never reaches here: `Pools::take` adds its stderr itself.
        if matches!(
            fault.verdict,
            Verdict::Crash | Verdict::ProtocolError | Verdict::Stall
        ) {
            fault.detail = with_stderr(fault.detail, &mut self.engines[seat]);
        }
        if self.config.on_fault == OnFault::Substitute && self.engines.len() >= 3 {
            self.engines[seat].kill();
            self.replay.substitute(seat, fault.verdict, fault.detail);
            return Ok(());
        }
        Err(End::Verdict {
            seat,
            verdict: fault.verdict,
            detail: fault.detail,
        })
    }

    /// Plays the opening's next ply for `seat`, with no clock running, and tells every engine as
    /// of any ply.
    pub(super) fn opening_ply(&mut self, seat: usize) -> Result<(), (usize, Fault)> {
        let text = self.opening.ply(
            self.opening_played,
            self.replay.game(),
            &mut self.opening_rng,
        );
        self.opening_played += 1;
        match self.replay.play(&text) {
            Ok(_) => {
                self.replay.end_opening();
                self.tell(seat)
            }
            // Openings are checked against the rules when they are read; should one still not
            // fit, the game goes on from where it stands.
            Err(_) => {
                self.opening_played = self.opening.len();
                Ok(())
            }
        }
    }

    /// Tells every engine still playing that `seat` played the last ply, in the words the
    /// record keeps (the move is not written out again).
    pub(super) fn tell(&mut self, seat: usize) -> Result<(), (usize, Fault)> {
        let (mut text, mut line) = (take(&mut self.move_text), take(&mut self.line));
        text.clear();
        if let Some(ply) = self.replay.last_ply() {
            text.push_str(&ply.mv);
        }
        line.clear();
        let _ = PlayLine {
            seat: Some(seat),
            mv: &text,
        }
        .write_to(&mut line);
        let told = self.tell_line(seat, &text, &line);
        (self.move_text, self.line) = (text, line);
        told
    }

    /// Holds `line`, the `play` of `mv` by `seat`, for every engine still playing, to be written
    /// before the referee next waits ([`Table::send_held`]); the seat to move next gets it with
    /// its `genmove`, in one write.
    fn tell_line(&mut self, seat: usize, mv: &str, line: &str) -> Result<(), (usize, Fault)> {
        for (other, engine) in self.engines.iter_mut().enumerate() {
            if self.replay.is_substituted(other) {
                continue;
            }
            // A CodeCup engine hears only the other seat's moves, when it is next asked to move.
            if let Some(codecup) = &mut self.codecup[other] {
                if other != seat {
                    codecup.hear(mv);
                }
                continue;
            }
            if let Err(e) = engine.hold(line) {
                return Err((other, fault_of(e, Duration::ZERO)));
            }
        }
        Ok(())
    }

    /// Adds [`PROBE_KEY`] to `command` when the run sends it.
    pub(super) fn probe(&self, command: &mut String) {
        if self.config.probe_keys {
            command.push(' ');
            command.push_str(PROBE_KEY);
        }
    }

    /// Writes the `genmove` command for `seat`, with its clock and every seat's, into `out`.
    pub(super) fn genmove(&mut self, seat: usize, out: &mut String) {
        let clock = &self.clocks[seat];
        let keys = &mut self.clock_keys;
        keys.clocks.clear();
        (keys.movetime, keys.time, keys.inc, keys.movestogo) = match clock.control() {
            TimeControl::Infinite => (None, None, None, None),
            TimeControl::MoveTime(time) => (Some(millis(time)), None, None, None),
            TimeControl::Fischer { .. } => {
                keys.clocks
                    .extend(self.clocks.iter().map(|c| millis(c.remaining())));
                let moves_to_go = clock.moves_to_go().map(u64::from);
                let (time, inc) = (millis(clock.remaining()), millis(clock.increment()));
                (None, Some(time), Some(inc), moves_to_go)
            }
        };
        out.clear();
        let _ = GenmoveLine { seat, keys }.write_to(out);
        self.probe(out);
    }

    /// Whether `seat` may ask to take a move back: a human seat, in a game without a clock.
    pub(super) fn may_undo(&self, seat: usize) -> bool {
        self.human[seat] && self.clocks.iter().all(|c| !c.runs())
    }

    /// Takes `seat`'s last move back (and every ply after it): the game starts again for every
    /// engine (`newgame`), and the plies before that move are played again as they were. With no
    /// move of its own to take back, or where the game cannot start over for every seat (the
    /// referee plays for one, or a CodeCup process, which is never told `newgame`, sits in one),
    /// nothing changes and the seat is asked again.
    pub(super) fn undo(&mut self, seat: usize) -> Result<(), End> {
        let seats = 0..self.engines.len();
        let restartable = self.codecup.iter().all(Option::is_none)
            && seats.clone().all(|s| !self.replay.is_substituted(s));
        if !restartable {
            return Ok(());
        }
        if let Some(kept) = self.replay.rewind_before_last_of(seat, self.opening_played) {
            self.redo = kept.into();
            self.rounds_told = 0;
            self.totals_told = vec![0; self.engines.len()];
            self.new_games()?;
        }
        Ok(())
    }

    /// Writes to every engine but `except` the commands held for it: the plies and events since
    /// the referee last waited, in one write per engine (a run of chance plies, a move and the
    /// card it draws, wake an engine once). Called before every wait, so every engine hears of a
    /// ply before the referee waits for anything.
    fn send_held(&mut self, except: Option<usize>) -> Result<(), (usize, Fault)> {
        for (seat, engine) in self.engines.iter_mut().enumerate() {
            if Some(seat) == except || self.replay.is_substituted(seat) {
                continue;
            }
            if let Err(e) = engine.send_held() {
                return Err((seat, fault_of(e, Duration::ZERO)));
            }
        }
        Ok(())
    }

    /// Asks `seat` for its move, checks it against the clock and the rules, plays it and tells
    /// every engine. `Ok(Some(end))` when the seat resigns; `Err` names the seat at fault.
    pub(super) fn turn(&mut self, seat: usize) -> Result<Option<End>, (usize, Fault)> {
        // The others first, and before the seat's clock starts: its time is its own.
        self.send_held(Some(seat))?;
        let budget = self.clocks[seat].remaining() + self.config.margin;
        let mut waited = budget;
        // A CPU clock ends the wait when the engine has used its time, and the time that passes
        // only at a multiple of it: a busy machine slows an engine without costing it its clock.
        let cpu_clock = self.config.cpu_clock && self.clocks[seat].runs();
        let cpu_before = cpu_clock.then(|| self.engines[seat].cpu_time()).flatten();
        if cpu_before.is_some() {
            self.engines[seat].limit_cpu(Some(budget));
            waited = budget.saturating_mul(CPU_CLOCK_PATIENCE);
        }
        let sent = Instant::now();
        let answer = match &mut self.codecup[seat] {
            Some(codecup) => codecup.ask(&mut self.engines[seat], sent + waited),
            None => {
                let mut command = take(&mut self.genmove_line);
                self.genmove(seat, &mut command);
                let answer = self.engines[seat].request(&command, sent + waited);
                self.genmove_line = command;
                answer
            }
        };
        // The referee's own delay (stopped, frozen, not scheduled) is not the engine's time: its
        // deadline was moved on by it, and its clock is not charged for it.
        let own_delay = self.engines[seat].own_delay();
        let mut used = sent.elapsed().saturating_sub(own_delay);
        let mut cpu_spent = false;
        if let Some(before) = cpu_before {
            self.engines[seat].limit_cpu(None);
            if let Some(after) = self.engines[seat].cpu_time() {
                used = after.saturating_sub(before);
                cpu_spent = used > budget;
            }
        }
        // Helpers an engine started and left (a `setsid` child) are adopted here: reap those
        // that ended as the game goes, so none is left a zombie.
        crate::engine::process::reap_ended_orphans();
        let answer = answer.map_err(|e| {
            let mut fault = fault_of(e, waited);
            if cpu_spent {
                fault.detail = format!("no answer within {} ms of CPU time", budget.as_millis());
            }
            if !own_delay.is_zero() {
                let ms = own_delay.as_millis();
                fault
                    .detail
                    .push_str(&format!(" (and {ms} ms the referee itself was held up)"));
            }
            (seat, fault)
        })?;
        let text = answer.trim();
        if text.contains('\n') {
            let detail = format!("answered genmove with several lines: {text:?}");
            return Err((seat, fault(Verdict::ProtocolError, detail)));
        }
        match MoveAnswer::word(text) {
            Some(MoveAnswer::Resign) => return Ok(Some(End::Resignation { seat })),
            // A fault while the engines are told ends the game: `Ok(Some(end))`.
            Some(MoveAnswer::Undo) if self.may_undo(seat) => return Ok(self.undo(seat).err()),
            // An undo the game cannot take is read as a move, which it is not.
            _ => {}
        }
        let late = self.clocks[seat]
            .spend(used, self.config.time_margin)
            .map_err(|overrun| (seat, fault(Verdict::TimeLoss, format!("{overrun}: {text}"))))?;
        match self.replay.play(text) {
            Ok(_) => {}
            Err(e @ MoveError::Parse(_)) => {
                return Err((seat, fault(Verdict::UnparseableMove, e.to_string())));
            }
            Err(e @ MoveError::Illegal(_)) => {
                return Err((seat, fault(Verdict::IllegalMove, e.to_string())));
            }
        }
        let clock = &self.clocks[seat];
        self.replay.time_last_ply(
            used,
            clock.runs().then(|| clock.remaining()),
            late,
            own_delay,
        );
        self.replay.inform_last_ply(self.engines[seat].take_info());
        // Every engine, the mover included, hears every ply; their answers are read before the
        // next command each gets, so a slow acknowledgement costs no round trip here.
        self.tell(seat)?;
        Ok(None)
    }
}

#[cfg(test)]
mod tests;
