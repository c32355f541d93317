//! A subcommand's flags built only when that subcommand is used (its help and man page included).

use clap::builder::{Resettable, StyledStr};
use clap::{ArgMatches, Args, Command, FromArgMatches};

/// The flags `T` of a subcommand, added to its clap `Command` when clap builds that subcommand
/// rather than when the program starts. Building every subcommand's flags was a large part of
/// every start, paid by every script's `referee moves` and every built-in bot's start.
#[derive(Debug)]
pub struct Deferred<T>(pub T);

impl<T: Args> Args for Deferred<T> {
    fn augment_args(command: Command) -> Command {
        command.defer(|command| keep_about(command, T::augment_args))
    }

    fn augment_args_for_update(command: Command) -> Command {
        command.defer(|command| keep_about(command, T::augment_args_for_update))
    }

    fn group_id() -> Option<clap::Id> {
        T::group_id()
    }
}

impl<T: FromArgMatches> FromArgMatches for Deferred<T> {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches(matches).map(Deferred)
    }

    fn from_arg_matches_mut(matches: &mut ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches_mut(matches).map(Deferred)
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches(matches)
    }

    fn update_from_arg_matches_mut(&mut self, matches: &mut ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches_mut(matches)
    }
}

/// `command` with `augment`'s flags, and its own description: the subcommand's, which clap set
/// before the deferred flags came (and which a flags struct's doc comment would replace).
fn keep_about(command: Command, augment: fn(Command) -> Command) -> Command {
    let about = command.get_about().cloned();
    let long_about = command.get_long_about().cloned();
    let text = |t: Option<StyledStr>| t.map_or(Resettable::Reset, Resettable::Value);
    augment(command)
        .about(text(about))
        .long_about(text(long_about))
}
