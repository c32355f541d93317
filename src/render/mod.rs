//! Pictures: SVG helpers the games draw with, the self-contained HTML viewer, and the report.

pub mod picture;
pub mod report;
pub mod svg;
pub mod viewer;
