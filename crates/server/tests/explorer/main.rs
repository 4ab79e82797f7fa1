//! The explorer's tests, in one binary so that Nana's two rule sets are solved once for all
//! of them: the API and its errors, a fuzz of requests, a load test on loopback and the page in
//! a headless browser.

mod api;
mod browser;
mod common;
mod fuzz;
mod load;
