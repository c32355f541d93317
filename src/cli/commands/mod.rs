//! One file per subcommand (related ones share: `play` holds `play`, `match` and `tournament`;
//! `docs` the pages the program prints about itself). Each turns its flags into library calls and
//! writes what they return.

pub mod bot;
pub mod check_engine;
pub mod docs;
pub mod export;
pub mod import;
pub mod openings;
pub mod play;
pub mod ratings;
pub mod render;
pub mod report;
pub mod session;
pub mod stats;
pub mod validate;
pub mod view;
