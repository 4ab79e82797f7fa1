//! The explorer's tests, in one binary over the test run's tables of both games (`nana-fixture`):
//! the API and its errors for both games, a fuzz of requests, a load test on loopback and the
//! page in a headless browser.

mod api;
mod browser;
mod common;
mod dobutsu;
mod faults;
mod fuzz;
mod limits;
mod load;
mod soak;
