//! `referee check-engine`: an engine walked through every situation of the protocol.

use std::io::Write;
use std::time::Duration;

use crate::cli::args::CheckEngineArgs;
use crate::cli::error::{CommandResult, Ended, Error};
use crate::cli::plan::{engine_text, this_program};
use crate::play::check::{self, CheckConfig};
use crate::play::codecup;
use crate::play::spec::{EngineSpec, Proto};
use crate::rules::AnyGame;
use crate::rules::game::Setup;

/// The engine's command and the checks' settings, into the checks.
pub fn run(args: CheckEngineArgs, stdout: &mut dyn Write) -> CommandResult {
    let spec = EngineSpec::parse(&engine_text(&args.command)?)?;
    // A temporary directory only when none is given; removed when it goes out of scope.
    let temporary;
    let log_dir = match args.log_dir {
        Some(dir) => {
            std::fs::create_dir_all(&dir).map_err(|e| Error::write(&dir, e))?;
            dir
        }
        None => {
            temporary = tempfile::Builder::new()
                .prefix("referee-check-")
                .tempdir()?;
            temporary.path().to_owned()
        }
    };
    let config = CheckConfig {
        game: args.game,
        variant: args.variant,
        seats: args.seats,
        command: spec.command,
        proto: spec.proto,
        startup: Duration::from_millis(args.startup),
        exe: this_program()?,
        log_dir,
    };
    checks(&config, args.json, stdout)
}

/// `referee check-engine`: runs the checks, printing each as it ends (or, with `json`, one JSON
/// object at the end); the input is found wrong (status 1) when any failed.
fn checks(config: &CheckConfig, json: bool, stdout: &mut dyn std::io::Write) -> CommandResult {
    if config.proto == Proto::CodeCup {
        let setup = Setup {
            variant: config.variant.clone(),
            seats: config.seats,
            ..Setup::default()
        };
        let game =
            AnyGame::create(&config.game, &setup).map_err(|e| Error::Usage(e.to_string()))?;
        if !codecup::fits(&game) {
            return Err(Error::Usage(codecup::unfit(&config.game)));
        }
    }
    let mut written = Ok(());
    let checks = check::run(config, |check| {
        if json || written.is_err() {
            return;
        }
        let mark = if check.passed { "ok  " } else { "FAIL" };
        // What the engine said is shown, never sent to the terminal.
        let safe = crate::protocol::terminal_safe;
        let detail = safe(&check.detail);
        written = writeln!(stdout, "{mark}  {}: {detail}", check.name).and_then(|()| {
            (check.lines.iter()).try_for_each(|line| writeln!(stdout, "        {}", safe(line)))
        });
    });
    written?;
    let failed = checks.iter().filter(|c| !c.passed).count();
    if json {
        let value = serde_json::json!({
            "game": config.game,
            "engine": config.command.command,
            "passed": checks.len() - failed,
            "failed": failed,
            "checks": checks,
        });
        writeln!(stdout, "{value}")?;
    } else {
        writeln!(
            stdout,
            "{} checks: {} passed, {failed} failed",
            checks.len(),
            checks.len() - failed
        )?;
    }
    Ok(if failed == 0 {
        Ended::Done
    } else {
        Ended::Invalid
    })
}
