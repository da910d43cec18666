//! Where a webhook may be sent: somewhere on the public internet, never inside the network the
//! server stands in. A player chooses a webhook's URL, and the server posts to it; without this
//! check a URL to `127.0.0.1`, `169.254.169.254` (a cloud's metadata service) or `[::1]` would
//! have the server call its own database, admin ports or credentials service for the player.
//!
//! The policy lives here once. The games service asks it when a hook is added (`check_url`),
//! and the dispatcher's webhook client resolves every host through it (`resolve`) at every
//! delivery, so a name that pointed outside when the hook was added and points inside since
//! (DNS rebinding) is refused too, and the client connects only to the addresses checked.
//!
//! Refused: loopback, private (RFC 1918), carrier-grade NAT, link-local, unique-local,
//! site-local, unspecified, multicast, broadcast, documentation, benchmarking and other
//! reserved ranges, and the IPv6 forms that carry one of those IPv4 addresses inside
//! (IPv4-mapped, NAT64, 6to4). An operator whose receivers are internal names them in
//! `DESPATCH_WEBHOOK_ALLOW_HOSTS` (host names, addresses or networks): a named host may resolve
//! to any address, and an address in a named network may be reached by any name.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::LazyLock;
use std::time::Duration;

use ipnet::{IpNet, Ipv4Net, Ipv6Net};

/// The setting that names the internal hosts webhooks may reach.
pub const ALLOW_VAR: &str = "DESPATCH_WEBHOOK_ALLOW_HOSTS";

/// How long a name may take to resolve when a hook is added.
const RESOLVE_TIMEOUT: Duration = Duration::from_secs(5);

const PRIVATE: &str = "a private address (RFC 1918)";
const DOCUMENTATION: &str = "an address reserved for documentation";

/// The IPv4 ranges no webhook reaches, each with the words a refusal says it in. The first
/// that holds an address names it.
const V4: [(&str, &str); 16] = [
    ("0.0.0.0/32", "the unspecified address"),
    ("0.0.0.0/8", "an address of 'this network' (0.0.0.0/8)"),
    ("10.0.0.0/8", PRIVATE),
    (
        "100.64.0.0/10",
        "a carrier-grade NAT address (100.64.0.0/10, RFC 6598)",
    ),
    ("127.0.0.0/8", "a loopback address"),
    (
        "169.254.0.0/16",
        "a link-local address (169.254.0.0/16, where cloud metadata services answer)",
    ),
    ("172.16.0.0/12", PRIVATE),
    ("192.0.0.0/24", "an IETF protocol assignment (192.0.0.0/24)"),
    ("192.0.2.0/24", DOCUMENTATION),
    (
        "192.88.99.0/24",
        "a 6to4 relay address (192.88.99.0/24, deprecated)",
    ),
    ("192.168.0.0/16", PRIVATE),
    ("198.18.0.0/15", "a benchmarking address (198.18.0.0/15)"),
    ("198.51.100.0/24", DOCUMENTATION),
    ("203.0.113.0/24", DOCUMENTATION),
    ("224.0.0.0/4", "a multicast address"),
    ("255.255.255.255/32", "the broadcast address"),
];

/// 240.0.0.0/4 after the broadcast address above, which it holds.
const V4_RESERVED: (&str, &str) = ("240.0.0.0/4", "a reserved address (240.0.0.0/4)");

/// The IPv6 ranges no webhook reaches. The forms that carry an IPv4 address are judged by
/// that address (`embedded_v4`), before these.
const V6: [(&str, &str); 11] = [
    ("::/128", "the unspecified address"),
    ("::1/128", "a loopback address"),
    ("::/96", "an IPv4-compatible address (::/96, deprecated)"),
    (
        "64:ff9b:1::/48",
        "a local-use NAT64 address (64:ff9b:1::/48)",
    ),
    ("100::/64", "a discard-only address (100::/64)"),
    (
        "2001::/32",
        "a Teredo address (2001::/32), whose IPv4 end cannot be checked",
    ),
    ("2001:db8::/32", DOCUMENTATION),
    ("fc00::/7", "a unique-local address (fc00::/7)"),
    ("fe80::/10", "a link-local address (fe80::/10)"),
    ("fec0::/10", "a site-local address (fec0::/10, deprecated)"),
    ("ff00::/8", "a multicast address"),
];

static RANGES_V4: LazyLock<Vec<(Ipv4Net, &'static str)>> = LazyLock::new(|| {
    V4.iter()
        .chain([&V4_RESERVED])
        .map(|(net, why)| (net.parse().expect("a network"), *why))
        .collect()
});

static RANGES_V6: LazyLock<Vec<(Ipv6Net, &'static str)>> = LazyLock::new(|| {
    V6.iter()
        .map(|(net, why)| (net.parse().expect("a network"), *why))
        .collect()
});

/// Why a webhook may not reach `ip`, or `None` when it is an address on the public internet.
pub fn inside(ip: IpAddr) -> Option<String> {
    match ip {
        IpAddr::V4(v4) => inside_v4(v4).map(str::to_owned),
        IpAddr::V6(v6) => {
            if let Some((form, v4)) = embedded_v4(v6) {
                return inside_v4(v4).map(|why| format!("{form} of {v4}, {why}"));
            }
            RANGES_V6
                .iter()
                .find(|(net, _)| net.contains(&v6))
                .map(|(_, why)| (*why).to_owned())
        }
    }
}

fn inside_v4(v4: Ipv4Addr) -> Option<&'static str> {
    RANGES_V4
        .iter()
        .find(|(net, _)| net.contains(&v4))
        .map(|(_, why)| *why)
}

/// The IPv4 address an IPv6 address stands for, where a connection to it reaches that IPv4
/// address: IPv4-mapped (`::ffff:a.b.c.d`), NAT64 (`64:ff9b::a.b.c.d`) and 6to4 (`2002:AABB:CCDD::/48`).
fn embedded_v4(v6: Ipv6Addr) -> Option<(&'static str, Ipv4Addr)> {
    if let Some(v4) = v6.to_ipv4_mapped() {
        return Some(("the IPv4-mapped form", v4));
    }
    let s = v6.segments();
    let v4 = |hi: u16, lo: u16| Ipv4Addr::from((u32::from(hi) << 16) | u32::from(lo));
    if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        return Some(("the NAT64 form", v4(s[6], s[7])));
    }
    if s[0] == 0x2002 {
        return Some(("the 6to4 form", v4(s[1], s[2])));
    }
    None
}

/// A webhook target refused, or one that cannot be reached now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unreachable {
    /// The host is (or resolves to) an address inside.
    Inside {
        host: String,
        addr: IpAddr,
        why: String,
    },
    /// The name does not resolve now (a delivery is retried later).
    Unresolved { host: String, why: String },
}

impl fmt::Display for Unreachable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unreachable::Inside { host, addr, why } => {
                let bare = host.trim_start_matches('[').trim_end_matches(']');
                if bare.parse::<IpAddr>().is_ok() {
                    write!(f, "{host} is {why}")?;
                } else {
                    write!(f, "{host} resolves to {addr}, {why}")?;
                }
                write!(
                    f,
                    "; webhooks are not sent inside the server's own network (the operator may allow an internal host in {ALLOW_VAR})"
                )
            }
            Unreachable::Unresolved { host, why } => {
                write!(f, "the name {host} does not resolve: {why}")
            }
        }
    }
}

impl std::error::Error for Unreachable {}

/// The operator's allowance: the internal hosts and networks webhooks may reach. Empty (the
/// default): none.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WebhookTargets {
    /// Host names, lower case, without a trailing dot: such a host may resolve to any address.
    hosts: Vec<String>,
    /// Addresses and networks that may be reached whatever name led to them.
    nets: Vec<IpNet>,
}

impl WebhookTargets {
    /// The allowance the setting `DESPATCH_WEBHOOK_ALLOW_HOSTS` holds (`config`). An entry that
    /// is no host name, address or network is reported and left out.
    pub fn from_setting(text: &str) -> WebhookTargets {
        let (targets, bad) = Self::parse(text);
        for entry in bad {
            tracing::warn!(
                "{ALLOW_VAR}: '{entry}' is no host name, IP address or network; it is not allowed"
            );
        }
        targets
    }

    /// The allowance in `text` (entries separated by commas or spaces: `hooks.internal`,
    /// `127.0.0.1`, `[::1]`, `10.1.0.0/16`), and the entries that are none of those.
    pub fn parse(text: &str) -> (WebhookTargets, Vec<String>) {
        let mut targets = WebhookTargets::default();
        let mut bad = Vec::new();
        for entry in text
            .split([',', ' '])
            .map(str::trim)
            .filter(|e| !e.is_empty())
        {
            let bare = entry.trim_start_matches('[').trim_end_matches(']');
            if let Ok(net) = bare.parse::<IpNet>() {
                targets.nets.push(net.trunc());
            } else if let Ok(ip) = bare.parse::<IpAddr>() {
                targets.nets.push(IpNet::from(ip.to_canonical()));
            } else if is_host_name(entry) {
                targets.hosts.push(host_key(entry));
            } else {
                bad.push(entry.to_owned());
            }
        }
        (targets, bad)
    }

    /// Whether the operator named this host: it may then resolve to any address.
    pub fn allows_host(&self, host: &str) -> bool {
        let key = host_key(host);
        self.hosts.contains(&key)
    }

    /// Whether `host` may be reached at `addr`: an address outside, an address the operator
    /// allowed, or any address of a host the operator named.
    pub fn check(&self, host: &str, addr: IpAddr) -> Result<(), Unreachable> {
        let canonical = addr.to_canonical();
        if self.allows_host(host) || self.nets.iter().any(|n| n.contains(&canonical)) {
            return Ok(());
        }
        match inside(addr) {
            None => Ok(()),
            Some(why) => Err(Unreachable::Inside {
                host: host.to_owned(),
                addr,
                why,
            }),
        }
    }

    /// The addresses of `host` (a name, or an address in brackets or not) at `port`, each
    /// checked: all of them, or the refusal of the first one inside. A webhook client connects
    /// only to what this answers.
    pub async fn resolve(&self, host: &str, port: u16) -> Result<Vec<SocketAddr>, Unreachable> {
        let bare = host.trim_start_matches('[').trim_end_matches(']');
        if let Ok(ip) = bare.parse::<IpAddr>() {
            self.check(host, ip)?;
            return Ok(vec![SocketAddr::new(ip, port)]);
        }
        let unresolved = |why: String| Unreachable::Unresolved {
            host: host.to_owned(),
            why,
        };
        let addrs: Vec<SocketAddr> =
            tokio::time::timeout(RESOLVE_TIMEOUT, tokio::net::lookup_host((bare, port)))
                .await
                .map_err(|_| unresolved(format!("no answer in {} s", RESOLVE_TIMEOUT.as_secs())))?
                .map_err(|e| unresolved(e.to_string()))?
                .collect();
        if addrs.is_empty() {
            return Err(unresolved("it has no address".into()));
        }
        for a in &addrs {
            self.check(host, a.ip())?;
        }
        Ok(addrs)
    }

    /// The check of a webhook's URL when it is added: its host, or every address its name
    /// resolves to now, must be outside (or allowed). A name that does not resolve now is let
    /// through: every delivery resolves it again and is refused then if it points inside.
    pub async fn check_url(&self, url: &str) -> Result<(), Unreachable> {
        let Ok(parsed) = url::Url::parse(url) else {
            return Ok(()); // the caller refuses what is no URL
        };
        let Some(host) = parsed.host_str() else {
            return Ok(());
        };
        match self
            .resolve(host, parsed.port_or_known_default().unwrap_or(0))
            .await
        {
            Err(e @ Unreachable::Inside { .. }) => Err(e),
            Ok(_) | Err(Unreachable::Unresolved { .. }) => Ok(()),
        }
    }
}

/// A host name as compared: lower case, no trailing dot.
fn host_key(host: &str) -> String {
    host.trim_end_matches('.').to_ascii_lowercase()
}

/// Letters, digits, `-`, `_` and dots: what a host name in the allowance may hold.
fn is_host_name(entry: &str) -> bool {
    !entry.is_empty()
        && entry
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        && entry.bytes().any(|b| b.is_ascii_alphabetic())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn why(addr: &str) -> Option<String> {
        inside(addr.parse().unwrap())
    }

    fn refused(addr: &str, words: &str) {
        let got = why(addr).unwrap_or_else(|| panic!("{addr} was let through"));
        assert!(got.contains(words), "{addr}: {got}");
    }

    #[test]
    fn ipv4_ranges_inside_are_refused_each_named() {
        refused("127.0.0.1", "loopback");
        refused("127.255.0.9", "loopback");
        refused("10.1.2.3", "private");
        refused("172.16.0.1", "private");
        refused("172.31.255.255", "private");
        refused("192.168.1.1", "private");
        refused("169.254.169.254", "link-local");
        refused("100.64.0.1", "carrier-grade NAT");
        refused("100.127.255.254", "carrier-grade NAT");
        refused("0.0.0.0", "unspecified");
        refused("0.1.2.3", "this network");
        refused("224.0.0.1", "multicast");
        refused("239.255.255.250", "multicast");
        refused("255.255.255.255", "broadcast");
        refused("240.0.0.1", "reserved");
        refused("192.0.2.10", "documentation");
        refused("198.51.100.7", "documentation");
        refused("203.0.113.99", "documentation");
        refused("198.18.0.1", "benchmarking");
        refused("192.0.0.8", "IETF");
    }

    #[test]
    fn ipv4_addresses_outside_pass() {
        for addr in [
            "1.1.1.1",
            "8.8.8.8",
            "93.184.215.14",
            "172.15.255.255",
            "172.32.0.1",
            "100.63.255.255",
            "100.128.0.1",
            "169.253.1.1",
            "198.20.0.1",
            "223.255.255.255",
        ] {
            assert_eq!(why(addr), None, "{addr}");
        }
    }

    #[test]
    fn ipv6_ranges_inside_are_refused_each_named() {
        refused("::1", "loopback");
        refused("::", "unspecified");
        refused("fe80::1", "link-local");
        refused("febf::1", "link-local");
        refused("fc00::1", "unique-local");
        refused("fd12:3456::1", "unique-local");
        refused("fec0::1", "site-local");
        refused("ff02::1", "multicast");
        refused("2001:db8::1", "documentation");
        refused("100::1", "discard");
        refused("2001::1", "Teredo");
        refused("::7f00:1", "IPv4-compatible");
    }

    #[test]
    fn ipv6_forms_of_ipv4_addresses_are_judged_by_the_ipv4_address() {
        refused(
            "::ffff:127.0.0.1",
            "IPv4-mapped form of 127.0.0.1, a loopback",
        );
        refused("::ffff:169.254.169.254", "link-local");
        refused("::ffff:10.0.0.1", "private");
        refused("::ffff:100.64.0.1", "carrier-grade NAT");
        refused("64:ff9b::7f00:1", "NAT64 form of 127.0.0.1");
        refused("2002:c0a8:0101::1", "6to4 form of 192.168.1.1");
        assert_eq!(why("::ffff:8.8.8.8"), None);
        assert_eq!(why("64:ff9b::808:808"), None);
        assert_eq!(why("2606:4700:4700::1111"), None);
        assert_eq!(why("2a00:1450:4001::200e"), None);
    }

    #[test]
    fn the_allowance_names_hosts_addresses_and_networks() {
        let (t, bad) =
            WebhookTargets::parse("hooks.internal, 127.0.0.1 [::1],10.1.0.0/16 no/such bad!");
        assert_eq!(bad, ["no/such", "bad!"]);
        let lo: IpAddr = "127.0.0.1".parse().unwrap();
        let ten: IpAddr = "10.1.9.9".parse().unwrap();
        let other: IpAddr = "10.2.0.1".parse().unwrap();
        assert!(t.check("Hooks.Internal.", other).is_ok(), "a named host");
        assert!(t.check("127.0.0.1", lo).is_ok());
        assert!(t.check("localhost", lo).is_ok(), "an allowed address");
        assert!(t.check("[::1]", "::1".parse().unwrap()).is_ok());
        assert!(t
            .check("[::ffff:127.0.0.1]", "::ffff:127.0.0.1".parse().unwrap())
            .is_ok());
        assert!(t.check("x.example", ten).is_ok(), "an allowed network");
        let e = t.check("x.example", other).unwrap_err();
        assert_eq!(
            e.to_string(),
            "x.example resolves to 10.2.0.1, a private address (RFC 1918); webhooks are not sent inside the server's own network (the operator may allow an internal host in DESPATCH_WEBHOOK_ALLOW_HOSTS)"
        );
        let none = WebhookTargets::default();
        let e = none.check("169.254.169.254", "169.254.169.254".parse().unwrap());
        assert!(e
            .unwrap_err()
            .to_string()
            .starts_with("169.254.169.254 is a link-local address"),);
    }

    #[tokio::test]
    async fn a_name_is_checked_at_every_address_it_resolves_to() {
        let none = WebhookTargets::default();
        let e = none.resolve("localhost", 80).await.unwrap_err();
        assert!(
            matches!(&e, Unreachable::Inside { addr, .. } if addr.is_loopback()),
            "{e}"
        );
        assert!(e.to_string().starts_with("localhost resolves to "), "{e}");
        let (allowed, _) = WebhookTargets::parse("localhost");
        let addrs = allowed.resolve("localhost", 8080).await.unwrap();
        assert!(addrs
            .iter()
            .all(|a| a.port() == 8080 && a.ip().is_loopback()));
        assert!(none.resolve("[::1]", 80).await.is_err());
        assert!(none.check_url("http://[::1]:8080/x").await.is_err());
        assert!(none.check_url("http://localhost/x").await.is_err());
        assert!(
            none.check_url("https://no-such-host.invalid/x")
                .await
                .is_ok(),
            "a name that does not resolve now is checked at each delivery"
        );
    }
}
