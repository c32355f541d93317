//! `referee serve`: one page, served over HTTP, that follows a run as it is played: its standings,
//! ratings and curves from its records files, its games in progress from its live files (drawn as
//! a spectator sees them), and every finished game in the replay viewer.

mod hosts;
mod http;
mod page;
mod pages;
mod watch;

use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::cli::error::{CommandResult, Ended, Error};
use crate::render::viewer::{Packer, PageWriter};
use crate::stats::elo::Sprt;
pub use hosts::Hosts;
use http::Reply;
use pages::Pages;
pub use watch::Files;
use watch::{Shown, Watch};

/// How often the files are looked at again.
const REFRESH: Duration = Duration::from_millis(250);

/// What to serve and where.
pub struct ServeArgs {
    /// The run's files, and whether its games in progress are shown whole.
    pub files: Files,
    /// The address to listen on.
    pub bind: String,
    /// The SPRT the report draws.
    pub sprt: Vec<String>,
    /// The names a request may call the server by, besides addresses and `localhost`.
    pub hosts: Hosts,
}

/// Serves the page until SIGINT or SIGTERM.
pub fn run(args: ServeArgs) -> CommandResult {
    let sprt = Sprt::parse_option(&args.sprt)?;
    let listener = listen(&args.bind)?;
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register(signal, stop.clone())?;
    }
    if args.files.reveal {
        eprintln!(
            "referee: --reveal: the games in progress are shown whole, every hand included: \
             only for a run no engine is playing"
        );
    }
    serve(&listener, &args.files, sprt, &args.hosts, &stop)?;
    eprintln!("referee: stopped serving");
    Ok(Ended::Done)
}

/// The page of the run that `match` or `tournament --serve ADDR` plays, served from a thread of
/// its own until the returned flag is set.
pub fn serve_run(
    bind: &str,
    records: PathBuf,
    live: PathBuf,
) -> Result<(Arc<AtomicBool>, std::thread::JoinHandle<()>), Error> {
    let listener = listen(bind)?;
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let thread = std::thread::spawn(move || {
        let files = Files {
            records: vec![records],
            lives: vec![live],
            ..Files::default()
        };
        if let Err(e) = serve(&listener, &files, None, &Hosts::default(), &flag) {
            eprintln!("referee: the page stopped: {e}");
        }
    });
    Ok((stop, thread))
}

/// A listener on `bind`, announced on stderr (with a warning when anyone may reach it).
fn listen(bind: &str) -> Result<TcpListener, Error> {
    let listener = TcpListener::bind(bind)
        .map_err(|e| Error::Usage(format!("cannot listen on {bind}: {e}")))?;
    let address = listener.local_addr()?;
    if !address.ip().is_loopback() {
        eprintln!(
            "referee: warning: {address} is not a loopback address: anyone who can reach it sees \
             the page (never a hidden card of a game in progress)"
        );
    }
    crate::sys::raise_open_files();
    eprintln!("referee: serving http://{address}/ (Ctrl-C stops)");
    Ok(listener)
}

/// Serves the page of `files` on `listener` until `stop` is set.
fn serve(
    listener: &TcpListener,
    files: &Files,
    sprt: Option<Sprt>,
    hosts: &Hosts,
    stop: &AtomicBool,
) -> std::io::Result<()> {
    let mut watch = Watch::new(files, sprt);
    watch.refresh();
    let drawing = crate::render::viewer::DRAWING_SCRIPT;
    let page = Arc::new(page::PAGE.replace("/*DRAWING*/", drawing).into_bytes());
    let mut looked = Instant::now();
    let watch = std::cell::RefCell::new(watch);
    let pages = std::cell::RefCell::new(Pages::default());
    http::serve(
        listener,
        stop,
        hosts,
        |path, query| answer(&watch.borrow(), &mut pages.borrow_mut(), &page, path, query),
        || {
            if looked.elapsed() >= REFRESH {
                watch.borrow_mut().refresh();
                looked = Instant::now();
            }
            let watch = watch.borrow();
            pages
                .borrow_mut()
                .draw_next(|number| game_page(&watch, number))
        },
    )
}

/// The answer to a request for `path`: the page, the state (only its version when the client
/// has it already: `since=V`), or a finished game in the viewer (`None` until it is drawn).
fn answer(
    watch: &Watch,
    pages: &mut Pages,
    page: &Arc<Vec<u8>>,
    path: &str,
    query: &str,
) -> Option<Reply> {
    let reply = match path {
        "/" => Reply {
            status: 200,
            kind: "text/html; charset=utf-8",
            body: page.clone(),
        },
        "/state" => {
            let (version, body) = watch.state();
            let since = (query.split('&'))
                .find_map(|pair| pair.strip_prefix("since="))
                .and_then(|v| v.parse::<u64>().ok());
            let body = match since == Some(version) {
                true => Arc::new(format!("{{\"version\":{version}}}").into_bytes()),
                false => body,
            };
            Reply {
                status: 200,
                kind: "application/json",
                body,
            }
        }
        _ => {
            let game = (path.strip_prefix("/game/")).and_then(|n| n.parse::<usize>().ok());
            pages.follow(watch.run());
            match game.and_then(|n| Some((n, watch.finished_status(n)?))) {
                Some((number, Shown::Record(()))) => return pages.get(number),
                Some((number, Shown::Held)) => Reply::text(
                    403,
                    &format!(
                        "game {number} is one rotation of a duplicate deal: shown once every \
                         rotation of the deal has ended"
                    ),
                ),
                None => Reply::text(404, "not found"),
            }
        }
    };
    Some(reply)
}

/// Finished game `number`'s page, read from its file and drawn.
fn game_page(watch: &Watch, number: usize) -> Reply {
    match watch.finished_record(number) {
        Some(Shown::Record(record)) => viewer_page(number, &record),
        Some(Shown::Held) => Reply::text(403, "held"),
        None => Reply::text(404, "not found"),
    }
}

/// The replay viewer of one finished game.
fn viewer_page(number: usize, record: &crate::records::Record) -> Reply {
    let page = PageWriter::start(Vec::new(), "").and_then(|mut writer| {
        writer.write(Packer::default().pack(number - 1, record, &writer.parts())?)?;
        writer.finish()
    });
    match page {
        Ok(body) => Reply {
            status: 200,
            kind: "text/html; charset=utf-8",
            body: Arc::new(body),
        },
        Err(e) => Reply::text(500, &format!("game {number}: {e}")),
    }
}
