//! Which names a request may call the server by (its `Host`): a defence against DNS rebinding,
//! where a website the organiser visits gets its own name to resolve to the server's address and
//! reads the page as if it were its own.

/// The names the server answers to: every address literal, `localhost` (and its subdomains, which
/// resolve to loopback by definition), and the names the organiser allows (`--allow-host`).
#[derive(Clone, Debug, Default)]
pub struct Hosts {
    allowed: Vec<String>,
}

impl Hosts {
    /// The server's hosts, with `allowed` names besides the address literals and `localhost`.
    pub fn new(allowed: &[String]) -> Hosts {
        Hosts {
            allowed: allowed.iter().map(|n| n.to_ascii_lowercase()).collect(),
        }
    }

    /// Whether a request whose `Host` is `host` (a name or an address, with or without a port)
    /// is answered. A name no one can make resolve elsewhere is safe: an address literal is one.
    pub fn allows(&self, host: &str) -> bool {
        let host = host.trim();
        let name = match host.strip_prefix('[') {
            // An IPv6 literal, `[::1]:8080`.
            Some(rest) => {
                return rest.split_once(']').is_some_and(|(ip, port)| {
                    ip.parse::<std::net::Ipv6Addr>().is_ok() && valid_port(port)
                });
            }
            None => match host.rsplit_once(':') {
                Some((name, port)) if valid_port(&format!(":{port}")) => name,
                Some(_) => return false,
                None => host,
            },
        };
        let name = name.trim_end_matches('.').to_ascii_lowercase();
        name.parse::<std::net::Ipv4Addr>().is_ok()
            || name == "localhost"
            || name.ends_with(".localhost")
            || self.allowed.contains(&name)
    }
}

/// Whether `port` is empty or `:` and a port number.
fn valid_port(port: &str) -> bool {
    port.is_empty()
        || port
            .strip_prefix(':')
            .is_some_and(|p| p.parse::<u16>().is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_and_localhost_are_answered_and_other_names_only_when_allowed() {
        let hosts = Hosts::new(&["Scoreboard.lan".to_owned()]);
        for host in [
            "127.0.0.1:8080",
            "127.0.0.1",
            "192.168.1.20:80",
            "[::1]:8080",
            "[::1]",
            "localhost:8080",
            "LOCALHOST.",
            "app.localhost:1",
            "scoreboard.lan:8080",
        ] {
            assert!(hosts.allows(host), "{host}");
        }
        for host in [
            "evil.example:8080",
            "evil.example",
            "127.0.0.1.evil.example",
            "localhost.evil.example",
            "[::1]:x",
            "[evil]:80",
            "127.0.0.1:99999",
            "",
        ] {
            assert!(!hosts.allows(host), "{host}");
        }
    }
}
