//! Accepting connections with limits: at most so many at once in all and from one
//! address, each one's request headers read within a time (an idle keep-alive
//! connection or a client that sends nothing is closed), and a file-descriptor check
//! at start. hyper serves each connection (HTTP/1.1 with a timer: axum's own `serve`
//! sets none, so its header timeout never fires).

use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tower::ServiceBuilder;

/// How many connections the server takes, and how long it waits for a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// Connections open at once, WebSockets included; more are closed at once.
    pub total: usize,
    /// Connections open at once from one address.
    pub per_address: usize,
    /// Time to send a request's headers, from the connection's start or the end of
    /// the previous answer: an idle connection is closed after it.
    pub header_read_timeout: Duration,
    /// Load balancers in front (`--trusted-proxy`): a request they pass on is the
    /// client's named last in its `X-Forwarded-For` header (the address the proxy
    /// saw), for the rate limits; their own connections have no per-address limit.
    pub trusted_proxies: Vec<IpAddr>,
}

impl Default for ConnectionLimits {
    fn default() -> ConnectionLimits {
        ConnectionLimits {
            total: 10_000,
            per_address: 256,
            header_read_timeout: Duration::from_secs(10),
            trusted_proxies: Vec::new(),
        }
    }
}

/// Descriptors the server needs besides its connections: the database, the engine
/// threads, the standard streams, and margin.
const OTHER_DESCRIPTORS: u64 = 64;

/// The soft limit on open files, where the system tells it (`/proc/self/limits`).
#[must_use]
pub fn open_files_soft_limit() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

/// Warns when the open-files limit is below what `limits` need.
pub(crate) fn check_descriptors(limits: &ConnectionLimits) {
    if let Some(soft) = open_files_soft_limit() {
        let needed = limits.total as u64 + OTHER_DESCRIPTORS;
        if soft < needed {
            tracing::warn!(
                soft_limit = soft,
                needed,
                "the open-files limit is below what --max-connections needs: raise it \
                 (ulimit -n {needed}) or lower --max-connections to {}",
                soft.saturating_sub(OTHER_DESCRIPTORS)
            );
        }
    }
}

/// What a connection holds while it is open: its place in the total and in its
/// address's count. Each request carries a clone, so a WebSocket keeps it after the
/// HTTP connection has handed its socket over.
#[derive(Debug, Clone)]
pub(crate) struct ConnectionSlot(#[allow(dead_code)] Arc<Held>);

#[derive(Debug)]
struct Held {
    _total: OwnedSemaphorePermit,
    address: IpAddr,
    counts: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut counts = self
            .counts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(count) = counts.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                counts.remove(&self.address);
            }
        }
    }
}

/// Serves `app` on `listener` until `shutdown` completes, then lets open requests
/// finish (10 s at most).
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()>,
) {
    let total = Arc::new(Semaphore::new(limits.total.max(1)));
    let counts: Arc<Mutex<HashMap<IpAddr, usize>>> = Arc::default();
    // Shutdown: each connection finishes its request and closes; the server waits
    // until every connection task has dropped its receiver.
    let (stopping, stop_signal) = tokio::sync::watch::channel(false);
    // HTTP/1.1 only: the auto builder (HTTP/1 or 2) first waits for bytes to tell the
    // versions apart, and a client that sends none would never meet the timeout.
    // Browsers speak HTTP/2 only over TLS, which a proxy in front terminates.
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout);
    let mut refused_logged = false;
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of descriptors (EMFILE): wait for some to be freed.
                    tracing::warn!(error = %e, "a connection could not be accepted");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let proxied = limits.trusted_proxies.contains(&peer.ip());
        let per_address = if proxied {
            usize::MAX
        } else {
            limits.per_address
        };
        let Some(slot) = take_slot(&total, &counts, peer.ip(), per_address) else {
            // Over a limit: closed at once, so that the descriptor is free again.
            if !refused_logged {
                tracing::warn!(address = %peer.ip(), "connection limit reached: connections are refused");
                refused_logged = true;
            }
            drop(stream);
            continue;
        };
        refused_logged = false;
        let service = ServiceBuilder::new()
            .map_request(
                move |mut request: axum::http::Request<hyper::body::Incoming>| {
                    let client = if proxied {
                        forwarded_client(request.headers())
                            .map_or(peer, |ip| std::net::SocketAddr::new(ip, 0))
                    } else {
                        peer
                    };
                    request.extensions_mut().insert(ConnectInfo(client));
                    request.extensions_mut().insert(slot.clone());
                    request
                },
            )
            .service(app.clone());
        let service = TowerToHyperService::new(service);
        let connection = builder
            .serve_connection(TokioIo::new(stream), service)
            .with_upgrades();
        let mut stop = stop_signal.clone();
        tokio::spawn(async move {
            let mut connection = std::pin::pin!(connection);
            // A peer that resets or times out is not the server's error.
            tokio::select! {
                _ = connection.as_mut() => return,
                _ = stop.changed() => {}
            }
            connection.as_mut().graceful_shutdown();
            let _ = connection.await;
        });
    }
    drop(listener);
    drop(stop_signal);
    let _ = stopping.send(true);
    tokio::select! {
        () = stopping.closed() => {}
        () = tokio::time::sleep(Duration::from_secs(10)) => {
            tracing::warn!("open connections did not finish within 10 s");
        }
    }
}

/// The client a trusted proxy names: the last address of `X-Forwarded-For` (the one
/// the proxy itself appended; those before it come from the client and prove
/// nothing).
fn forwarded_client(headers: &axum::http::HeaderMap) -> Option<IpAddr> {
    headers
        .get_all("x-forwarded-for")
        .iter()
        .next_back()?
        .to_str()
        .ok()?
        .rsplit(',')
        .next()?
        .trim()
        .parse()
        .ok()
}

fn take_slot(
    total: &Arc<Semaphore>,
    counts: &Arc<Mutex<HashMap<IpAddr, usize>>>,
    address: IpAddr,
    per_address: usize,
) -> Option<ConnectionSlot> {
    let permit = Arc::clone(total).try_acquire_owned().ok()?;
    {
        let mut map = counts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let count = map.entry(address).or_insert(0);
        if *count >= per_address.max(1) {
            return None;
        }
        *count += 1;
    }
    Some(ConnectionSlot(Arc::new(Held {
        _total: permit,
        address,
        counts: Arc::clone(counts),
    })))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_proxied_client_is_the_last_forwarded_address() {
        let mut headers = axum::http::HeaderMap::new();
        assert_eq!(super::forwarded_client(&headers), None);
        headers.insert(
            "x-forwarded-for",
            "6.6.6.6, 203.0.113.7".parse().expect("a header value"),
        );
        assert_eq!(
            super::forwarded_client(&headers),
            Some("203.0.113.7".parse().expect("an address"))
        );
        headers.insert(
            "x-forwarded-for",
            "not an address".parse().expect("a header value"),
        );
        assert_eq!(super::forwarded_client(&headers), None);
    }

    use super::*;

    #[test]
    fn slots_count_per_address_and_in_all() {
        let total = Arc::new(Semaphore::new(3));
        let counts = Arc::default();
        let a: IpAddr = [10, 0, 0, 1].into();
        let b: IpAddr = [10, 0, 0, 2].into();
        let first = take_slot(&total, &counts, a, 2).expect("a slot");
        let second = take_slot(&total, &counts, a, 2).expect("a slot");
        assert!(
            take_slot(&total, &counts, a, 2).is_none(),
            "two per address"
        );
        let third = take_slot(&total, &counts, b, 2).expect("another address");
        assert!(take_slot(&total, &counts, b, 2).is_none(), "three in all");
        drop(first);
        assert!(take_slot(&total, &counts, a, 2).is_some(), "freed");
        drop((second, third));
        assert!(counts.lock().expect("a lock").is_empty());
        assert_eq!(total.available_permits(), 3);
    }
}
