//! Pictures: each game's board (`board/`), the SVG helpers they draw with, and (with the `cli`
//! feature) the self-contained HTML viewer and the report.

pub mod board;
#[cfg(feature = "cli")]
pub mod event;
#[cfg(feature = "cli")]
pub mod ratings;
#[cfg(feature = "cli")]
pub mod report;
pub mod svg;
#[cfg(feature = "cli")]
pub mod viewer;
#[cfg(feature = "cli")]
pub mod wall;
