//! `referee match`, `referee tournament` and `referee play`: the flags turned into one checked
//! match configuration and the run's plan, then the run.

use std::io;

use crate::cli::args::{HumanArgs, MatchArgs, PlayArgs, RunArgs, TournamentArgs};
use crate::cli::error::{CommandResult, Error};
use crate::cli::plan::RunPlan;
use crate::cli::run::run;
use crate::play::arena::MatchConfig;

/// `referee play`: a `match` with the person in one seat (`human`) and the engines, or the
/// built-in search bot, in the others.
pub fn human(args: HumanArgs, stdout: &mut dyn io::Write) -> CommandResult {
    if args.seat >= args.seats {
        return Err(Error::Usage(format!(
            "--seat {} is not a seat of {} (seats are numbered from 0)",
            args.seat, args.seats
        )));
    }
    let others = args.seats - 1;
    let words = |text: &String| vec![text.clone()];
    let mut engines = match args.engines.len() {
        0 => vec![vec!["search".to_owned()]; others],
        1 => vec![words(&args.engines[0]); others],
        n if n == others => args.engines.iter().map(words).collect(),
        n => {
            return Err(Error::Usage(format!(
                "{n} --engine values for {others} other seats: give one for all, or one per seat"
            )));
        }
    };
    engines.insert(args.seat, vec!["human".to_owned()]);
    let mut play = PlayArgs::new(&args.game);
    play.variant = args.variant;
    play.engine_words = engines;
    (play.tc, play.movetime, play.seed) = (args.tc, args.movetime, args.seed);
    let args = MatchArgs {
        play,
        games: Some(args.games),
        rounds: None,
        out: args.out,
        run: RunArgs::default(),
    };
    one_match(args, stdout)
}

pub fn one_match(args: MatchArgs, stdout: &mut dyn io::Write) -> CommandResult {
    run_and_serve(&RunPlan::of_match(args)?, stdout)
}

pub fn tournament(args: TournamentArgs, stdout: &mut dyn io::Write) -> CommandResult {
    run_and_serve(&RunPlan::of_tournament(args)?, stdout)
}

/// Plays the run, with its page served while it plays when `--serve` asks for it; what contains
/// its engines said first.
fn run_and_serve(plan: &RunPlan, stdout: &mut dyn io::Write) -> CommandResult {
    let (config, tournament, json) = (&plan.config, &plan.tournament, plan.json);
    announce_containment(config);
    let (Some(bind), Some(out), Some(live)) =
        (&tournament.serve, &tournament.out, &tournament.live)
    else {
        return run(config, tournament, json, stdout);
    };
    let (stop, page) = crate::cli::serve::serve_run(bind, out.clone(), live.clone())?;
    let result = run(config, tournament, json, stdout);
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let _ = page.join();
    result
}

/// Says, before a run that contains its engines (a sandbox, a user or limits) starts, what holds
/// them: an organiser should not have to read the source to know.
fn announce_containment(config: &MatchConfig) {
    let contained = (config.engines.iter())
        .any(|e| e.command.sandbox || e.command.user.is_some() || e.command.limits.any());
    if !contained {
        return;
    }
    let sandboxed: Vec<&str> = (config.engines.iter())
        .filter(|e| e.command.sandbox)
        .map(|e| e.command.name.as_str())
        .collect();
    if !sandboxed.is_empty() {
        let user = match crate::sys::is_root() {
            true => format!(
                "a user of its own each (from uid {}) unless user= says otherwise",
                crate::engine::users::FIRST_UID
            ),
            false => "the referee's own user".to_owned(),
        };
        eprintln!(
            "referee: containment: {} in bubblewrap, as {user}: own session, pid, network and \
             mount namespaces, seccomp, private size-limited /tmp; nothing outlives a game or the \
             referee.",
            sandboxed.join(", ")
        );
        if let Some(scratch) = &config.scratch_dir {
            eprintln!(
                "referee: containment: what sandboxed engines write to their scratch directories \
                 under {} is bounded per file (fsize=), not in all.",
                scratch.display()
            );
        }
    }
    eprintln!(
        "referee: containment: {}.",
        crate::engine::cgroup::describe()
    );
}
