//! Game creation limited per client address (`DESPATCH_CREATE_BURST` / `DESPATCH_CREATE_RATE`),
//! for the API's `POST /api/games` and the lobby's form alike: a script cannot fill the
//! database with games. The buckets are the games service's (`Games::creation_limit`); this
//! module works out whose bucket a request draws on.
//!
//! The client address is the TCP peer's. Behind a reverse proxy every request comes from the
//! proxy, so all clients would share one bucket; `DESPATCH_TRUSTED_PROXIES` names the proxies
//! whose `X-Forwarded-For` is believed. From such a peer the client is the right-most address
//! in that header that is not itself a trusted proxy; from any other peer the header is
//! ignored, since a client can write anything there. An IPv6 client is counted by its /64,
//! the block one customer is usually given.

use std::net::{IpAddr, Ipv6Addr};

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse};
use serde_json::json;

use crate::games::rate::Limited;
use crate::games::Games;

/// The peers whose `X-Forwarded-For` names the client (`DESPATCH_TRUSTED_PROXIES`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<IpAddr>);

impl TrustedProxies {
    /// Reads `DESPATCH_TRUSTED_PROXIES`: IP addresses separated by commas or spaces. An entry
    /// that is not an address is reported and left out.
    pub fn from_env() -> TrustedProxies {
        let text = std::env::var("DESPATCH_TRUSTED_PROXIES").unwrap_or_default();
        let (proxies, bad) = Self::parse(&text);
        for entry in bad {
            tracing::warn!(
                "DESPATCH_TRUSTED_PROXIES: '{entry}' is not an IP address; it is not trusted"
            );
        }
        proxies
    }

    /// The addresses in `text`, and the entries that are not addresses.
    pub fn parse(text: &str) -> (TrustedProxies, Vec<String>) {
        let mut proxies = Vec::new();
        let mut bad = Vec::new();
        for entry in text
            .split([',', ' '])
            .map(str::trim)
            .filter(|e| !e.is_empty())
        {
            match entry.parse::<IpAddr>() {
                Ok(ip) => proxies.push(ip.to_canonical()),
                Err(_) => bad.push(entry.to_owned()),
            }
        }
        (TrustedProxies(proxies), bad)
    }

    fn trusts(&self, ip: IpAddr) -> bool {
        self.0.contains(&ip.to_canonical())
    }

    /// The client a request comes from: the peer, or for a trusted proxy the right-most
    /// address of `X-Forwarded-For` it did not add itself. `None` when the peer is unknown.
    pub fn client(&self, req: &HttpRequest) -> Option<IpAddr> {
        let peer = req.peer_addr()?.ip().to_canonical();
        Some(self.client_of(peer, req))
    }

    fn client_of(&self, peer: IpAddr, req: &HttpRequest) -> IpAddr {
        if !self.trusts(peer) {
            return peer;
        }
        let mut hops = Vec::new();
        for value in req.headers().get_all("X-Forwarded-For") {
            let Ok(value) = value.to_str() else {
                return peer;
            };
            for hop in value.split(',').map(str::trim) {
                match hop.parse::<IpAddr>() {
                    Ok(ip) => hops.push(ip.to_canonical()),
                    // A hop that is not an address: what lies left of it cannot be believed.
                    Err(_) => hops.clear(),
                }
            }
        }
        hops.iter()
            .rev()
            .find(|ip| !self.trusts(**ip))
            .or(hops.first())
            .copied()
            .unwrap_or(peer)
    }
}

/// The bucket an address draws on: itself, or for IPv6 its /64.
fn bucket_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => {
            let mut segments = v6.segments();
            segments[4..].fill(0);
            IpAddr::V6(Ipv6Addr::from(segments))
        }
    }
}

/// A creation refused for its client address; nothing was created.
#[derive(Debug)]
pub struct TooManyGames {
    pub client: IpAddr,
    pub limited: Limited,
}

impl TooManyGames {
    pub fn message(&self) -> String {
        format!(
            "{} has created too many games lately (at most {} at once, then one every {} s); \
             no game was created — try again in {} s",
            self.client,
            self.limited.rate.burst,
            self.limited.rate.per.as_secs(),
            self.limited.retry_after_secs()
        )
    }

    /// The API's answer: 429, `Retry-After`, and the limit in the body.
    pub fn response(&self) -> HttpResponse {
        HttpResponse::build(StatusCode::TOO_MANY_REQUESTS)
            .insert_header(("Retry-After", self.limited.retry_after_secs().to_string()))
            .json(json!({
                "error": "rate_limited",
                "message": self.message(),
                "burst": self.limited.rate.burst.get(),
                "refill_secs": self.limited.rate.per.as_secs_f64(),
                "retry_after_secs": self.limited.retry_after_secs(),
            }))
    }
}

/// Takes one game from the client's bucket, when creation is limited.
pub fn check_create(
    games: &Games,
    proxies: &TrustedProxies,
    req: &HttpRequest,
) -> Result<(), TooManyGames> {
    let (Some(buckets), Some(client)) = (games.creation_limit(), proxies.client(req)) else {
        return Ok(());
    };
    buckets
        .check(&bucket_key(client))
        .map_err(|limited| TooManyGames { client, limited })
}

/// Takes one sign-in (or seat-link) request from the client's bucket, when such requests are
/// limited (`Games::with_login_rate`): the same client address rules as game creation.
pub fn check_login(
    games: &Games,
    proxies: &TrustedProxies,
    req: &HttpRequest,
) -> Result<(), Limited> {
    let (Some(buckets), Some(client)) = (games.login_limit(), proxies.client(req)) else {
        return Ok(());
    };
    buckets.check(&bucket_key(client))
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    fn client(trusted: &str, peer: &str, forwarded: &[&str]) -> IpAddr {
        let (proxies, bad) = TrustedProxies::parse(trusted);
        assert!(bad.is_empty(), "{bad:?}");
        let mut req = TestRequest::default().peer_addr(peer.parse().unwrap());
        for f in forwarded {
            req = req.append_header(("X-Forwarded-For", *f));
        }
        proxies.client(&req.to_http_request()).unwrap()
    }

    #[test]
    fn the_client_is_the_peer_unless_the_peer_is_a_trusted_proxy() {
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        // No proxy trusted: the header is the client's to write, and ignored.
        assert_eq!(
            client("", "203.0.113.7:4000", &["198.51.100.1"]),
            ip("203.0.113.7")
        );
        // A peer that is not the trusted proxy: ignored too.
        assert_eq!(
            client("10.0.0.1", "203.0.113.7:4000", &["198.51.100.1"]),
            ip("203.0.113.7")
        );
        // The trusted proxy: the right-most hop it did not add, past other trusted proxies.
        assert_eq!(
            client(
                "10.0.0.1, 10.0.0.2",
                "10.0.0.1:4000",
                &["6.6.6.6, 198.51.100.1, 10.0.0.2"]
            ),
            ip("198.51.100.1")
        );
        assert_eq!(
            client("10.0.0.1", "10.0.0.1:4000", &["6.6.6.6", "198.51.100.1"]),
            ip("198.51.100.1")
        );
        // The trusted proxy sent no header, or one that does not parse: the proxy itself.
        assert_eq!(client("10.0.0.1", "10.0.0.1:4000", &[]), ip("10.0.0.1"));
        assert_eq!(
            client("10.0.0.1", "10.0.0.1:4000", &["198.51.100.1, junk"]),
            ip("10.0.0.1")
        );
    }

    #[test]
    fn an_ipv6_client_is_counted_by_its_64_and_a_bad_proxy_entry_is_reported() {
        assert_eq!(
            bucket_key("2001:db8:1:2:3:4:5:6".parse().unwrap()),
            "2001:db8:1:2::".parse::<IpAddr>().unwrap()
        );
        let (proxies, bad) = TrustedProxies::parse("10.0.0.1,proxy.local ::1");
        assert_eq!(bad, vec!["proxy.local".to_owned()]);
        assert_eq!(proxies.0.len(), 2);
    }
}
