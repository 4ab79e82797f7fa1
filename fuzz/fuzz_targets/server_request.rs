//! The explorer's HTTP API run in process: any method, path and query string through the
//! router (`tower`'s `oneshot` in a current-thread runtime). None panics; every answer is a
//! 2xx, a 4xx or the 503 of a rule set whose table is not ready, and every answer under
//! `/api/` is JSON. `/api/.../stats`, which counts a whole table, is left out.
//!
//! The input: a byte choosing the method, then the request target (path and query). The tables
//! are those of [`nana_fuzz::tables`]: Nana's default rule set is ready, every other rule set's
//! file is damaged.
#![no_main]

use std::sync::{Arc, OnceLock};

use axum::body::{to_bytes, Body};
use axum::http::{Method, Request, StatusCode};
use dobutsu_shogi::Dobutsu;
use libfuzzer_sys::fuzz_target;
use nana_fuzz::tables;
use nana_server::{add_game, Missing, Registry};
use nana_shogi::Nana;
use tower::ServiceExt;

const METHODS: [Method; 4] = [Method::GET, Method::HEAD, Method::POST, Method::OPTIONS];

fn registry() -> Arc<Registry> {
    static REGISTRY: OnceLock<Arc<Registry>> = OnceLock::new();
    REGISTRY
        .get_or_init(|| {
            let mut registry = Registry::new();
            add_game::<Nana>(&mut registry, tables(), Missing::Refuse);
            add_game::<Dobutsu>(&mut registry, tables(), Missing::Refuse);
            Arc::new(registry)
        })
        .clone()
}

fuzz_target!(|data: &[u8]| {
    let [method, target @ ..] = data else { return };
    let method = METHODS[usize::from(*method) % METHODS.len()].clone();
    // A target the HTTP layer would refuse never reaches the router.
    let Ok(request) = Request::builder().method(method.clone()).uri(target).body(Body::empty()) else {
        return;
    };
    let path = request.uri().path().to_string();
    // `/stats` counts every entry of a table once, whole-table work that takes longer than the
    // timeout under the sanitizer; its answers are checked by the normal suite.
    if path.starts_with("/api/") && path.ends_with("/stats") {
        return;
    }
    let runtime = tokio::runtime::Builder::new_current_thread().build().expect("a runtime");
    let (status, body) = runtime.block_on(async {
        let response = nana_server::router(registry()).oneshot(request).await.expect("the router answers");
        let status = response.status();
        (status, to_bytes(response.into_body(), 1 << 24).await.expect("a body"))
    });
    assert!(
        status.is_success() || status.is_client_error() || status == StatusCode::SERVICE_UNAVAILABLE,
        "{method} {target:?}: {status}"
    );
    if path.starts_with("/api/") && method != Method::HEAD && method != Method::OPTIONS {
        let json: Result<serde_json::Value, _> = serde_json::from_slice(&body);
        assert!(json.is_ok(), "{method} {path}: {status}, not JSON: {}", String::from_utf8_lossy(&body));
    }
});
