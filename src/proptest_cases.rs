//! The property tests' number of cases: enough to mean something, more when `PROPTEST_CASES` asks.

/// `cases` cases, unless `PROPTEST_CASES` asks for another number (CI may raise it).
pub(crate) fn config(cases: u32) -> proptest::prelude::ProptestConfig {
    let mut config = proptest::prelude::ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = cases;
    }
    config
}
