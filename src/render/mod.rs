//! Pictures: SVG helpers the games draw with, and the self-contained HTML viewer.

pub mod picture;
pub mod svg;
pub mod viewer;
