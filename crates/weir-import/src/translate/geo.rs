//! nginx's `geo $var { default 0; 10.0.0.0/8 1; }` read by `if ($var) { return 403; }` (or `if
//! ($var = VALUE)`, `!=`): the client addresses refused, as weir's `access` entries. `geo` picks
//! the longest prefix that holds the address; `access` takes the first entry that matches, so
//! the entries are written longest prefix first, and the default last (`allow all` or `deny
//! all`).

use std::collections::HashMap;
use std::net::IpAddr;

use crate::parse::Directive;

/// The `http` block's `geo` maps, by variable (without `$`): what each becomes, or why it cannot.
pub(super) type GeoMaps = HashMap<String, Result<Geo, String>>;

/// A `geo` map of the client address.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Geo {
    /// (network as written, its address, prefix length, value), in the order written.
    entries: Vec<(String, IpAddr, u8, String)>,
    /// `default`: `""` when the map has none, as nginx's.
    default: String,
    /// The `geo` block.
    pub directive: *const Directive,
}

/// The variable a `geo` block sets (`geo $var { }` or `geo $remote_addr $var { }`).
pub(super) fn variable(directive: &Directive) -> Option<&str> {
    match directive.args.as_slice() {
        [variable] | [_, variable] => variable.strip_prefix('$'),
        _ => None,
    }
}

/// A `geo` block as weir can carry it: keyed by the client address (`$remote_addr`, as nginx's
/// default), of networks and addresses with a value each; `Err` for any other form.
pub(super) fn parse(directive: &Directive) -> Result<Geo, String> {
    if let [source, _] = directive.args.as_slice() {
        if source != "$remote_addr" {
            return Err(format!(
                "weir's access rules read the client's address; a geo of {source} has no weir form"
            ));
        }
    }
    let mut geo = Geo {
        entries: Vec::new(),
        default: String::new(),
        directive: directive as *const Directive,
    };
    for entry in directive.block.as_deref().unwrap_or_default() {
        let [value] = entry.args.as_slice() else {
            return Err(format!(
                "geo's {} has no weir form (weir reads `NETWORK VALUE` and `default VALUE`)",
                entry.name
            ));
        };
        if entry.name == "default" {
            geo.default = value.clone();
            continue;
        }
        let (address, prefix) = network(&entry.name).ok_or_else(|| {
            format!(
                "geo's {} has no weir form (weir reads `NETWORK VALUE` and `default VALUE`)",
                entry.name
            )
        })?;
        geo.entries
            .push((entry.name.clone(), address, prefix, value.clone()));
    }
    Ok(geo)
}

/// `10.0.0.0/8` or `192.0.2.1` (a `/32`, or `/128`).
fn network(text: &str) -> Option<(IpAddr, u8)> {
    let (address, prefix) = match text.split_once('/') {
        Some((address, prefix)) => (address.parse::<IpAddr>().ok()?, prefix.parse::<u8>().ok()?),
        None => {
            let address = text.parse::<IpAddr>().ok()?;
            (address, if address.is_ipv4() { 32 } else { 128 })
        }
    };
    let most = if address.is_ipv4() { 32 } else { 128 };
    (prefix <= most).then_some((address, prefix))
}

/// What an `if` asks of the variable.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Test {
    /// `if ($var)`: not empty and not `0`.
    Set,
    /// `if ($var = VALUE)`.
    Is(String),
    /// `if ($var != VALUE)`.
    IsNot(String),
}

impl Test {
    fn holds(&self, value: &str) -> bool {
        match self {
            Test::Set => !value.is_empty() && value != "0",
            Test::Is(wanted) => value == wanted,
            Test::IsNot(wanted) => value != wanted,
        }
    }
}

/// `if ($var) { return 403; }` (or `= VALUE`, `!= VALUE`): the variable and the test, when the
/// block is a `return 403` alone.
pub(super) fn geo_if(directive: &Directive) -> Option<(String, Test)> {
    if directive.name != "if" {
        return None;
    }
    let [answer] = directive.block.as_deref()? else {
        return None;
    };
    if answer.name != "return" || answer.args != ["403"] {
        return None;
    }
    let (name, rest) = super::text::if_variable(directive)?;
    let test = if rest.is_empty() {
        Test::Set
    } else if let Some(value) = rest.strip_prefix("!=") {
        Test::IsNot(super::text::unquote(value).to_string())
    } else if let Some(value) = rest.strip_prefix('=') {
        Test::Is(super::text::unquote(value).to_string())
    } else {
        return None;
    };
    Some((name, test))
}

/// Whether `outer` holds all of `inner`.
fn holds(outer: (IpAddr, u8), inner: (IpAddr, u8)) -> bool {
    let bits = |address: IpAddr| -> (u128, u8) {
        match address {
            IpAddr::V4(v4) => (u128::from(u32::from(v4)) << 96, 32),
            IpAddr::V6(v6) => (u128::from(v6), 128),
        }
    };
    let ((outer_bits, outer_width), (inner_bits, inner_width)) = (bits(outer.0), bits(inner.0));
    if outer_width != inner_width || outer.1 > inner.1 {
        return false;
    }
    // An IPv4 address is in the top 32 bits, so a prefix counts from the top for both.
    let shift = 128 - u32::from(outer.1);
    let mask = if shift >= 128 { 0 } else { u128::MAX << shift };
    outer_bits & mask == inner_bits & mask
}

impl Geo {
    /// The value for every address of `network` (the longest entry that holds it), when the
    /// map has no longer entry inside it.
    fn value_for(&self, network: (IpAddr, u8)) -> &str {
        self.entries
            .iter()
            .filter(|entry| holds((entry.1, entry.2), network))
            .max_by_key(|entry| entry.2)
            .map_or(self.default.as_str(), |entry| entry.3.as_str())
    }
}

/// The access entries refusing what any of `guards` (each a `geo` and the `if`'s test) refuses:
/// every network the maps list, longest prefix first (`deny` where some test holds for it, else
/// `allow`), then the default (`deny all` or `allow all`). An address's first match is then the
/// longest network that holds it, for which each map's value is the one it has for the address.
/// With `others` (the route's own `allow`/`deny`, which nginx checks after its `if`s), only the
/// networks refused are written, to come before those: an address the `if`s let through must
/// reach them, which an `allow` entry would not let it do; `Err` when some address is let
/// through inside a network refused, or the default is refused.
pub(super) fn access(guards: &[(&Geo, &Test)], others: bool) -> Result<Vec<String>, String> {
    let mut networks: Vec<(&str, IpAddr, u8)> = Vec::new();
    for (geo, _) in guards {
        for (text, address, prefix, _) in &geo.entries {
            let known = networks.iter().any(|(_, other, length)| {
                *length == *prefix && holds((*other, *length), (*address, *prefix))
            });
            if !known {
                networks.push((text, *address, *prefix));
            }
        }
    }
    // Longest prefix first, as geo picks it; a stable sort keeps the written order beside it.
    networks.sort_by_key(|network| std::cmp::Reverse(network.2));
    let refused = |network: Option<(IpAddr, u8)>| {
        guards.iter().any(|(geo, test)| {
            test.holds(network.map_or(geo.default.as_str(), |network| geo.value_for(network)))
        })
    };
    let decided: Vec<(&str, IpAddr, u8, bool)> = networks
        .iter()
        .map(|&(text, address, prefix)| (text, address, prefix, refused(Some((address, prefix)))))
        .collect();
    let refused_by_default = refused(None);
    if !others {
        let mut list: Vec<String> = decided
            .iter()
            .map(|(text, _, _, refused)| {
                format!("{} {text}", if *refused { "deny" } else { "allow" })
            })
            .collect();
        list.push(
            if refused_by_default {
                "deny all"
            } else {
                "allow all"
            }
            .to_string(),
        );
        return Ok(list);
    }
    if refused_by_default {
        return Err("it refuses by default, and the route has allow/deny of its own, which weir's one access list cannot check after it".into());
    }
    let let_through_inside = decided.iter().any(|inner| {
        !inner.3
            && decided.iter().any(|outer| {
                outer.3 && outer.2 < inner.2 && holds((outer.1, outer.2), (inner.1, inner.2))
            })
    });
    if let_through_inside {
        return Err("it lets some addresses through inside a network it refuses, and the route has allow/deny of its own, which weir's one access list cannot check after it".into());
    }
    Ok(decided
        .iter()
        .filter(|network| network.3)
        .map(|(text, _, _, _)| format!("deny {text}"))
        .collect())
}

/// nginx's allowlist: a zone keyed by `$key`, with `map $geo $key { 0 ""; 1 $binary_remote_addr; }`
/// and `geo $geo { default 1; 10.0.0.0/8 0; }`: the key the limited clients get (one for all of
/// them: the geo default's), and the networks (as written) whose key is empty, which nginx's
/// limits skip: weir's `exempt`. `Err` for any other shape.
pub(super) fn allowlist(geo: &Geo, map: &Directive) -> Result<(String, Vec<String>), String> {
    // nginx's map gives "" where no entry matches and there is no `default`.
    let mut default = "";
    let mut entries: Vec<(&str, &str)> = Vec::new();
    for entry in map.block.as_deref().unwrap_or_default() {
        match (entry.name.as_str(), entry.args.as_slice()) {
            ("default", [key]) => default = key,
            (name, [key])
                if !name.starts_with('~')
                    && !matches!(name, "hostnames" | "volatile" | "include") =>
            {
                entries.push((name, key))
            }
            _ => {
                return Err(format!(
                    "the map's {} has no weir form (weir reads `VALUE KEY` and `default KEY`)",
                    entry.name
                ))
            }
        }
    }
    let key_of = |value: &str| {
        entries
            .iter()
            .find(|(name, _)| *name == value)
            .map_or(default, |(_, key)| key)
    };
    let limited = key_of(&geo.default);
    if limited.is_empty() {
        return Err("the geo's default gets an empty key: nginx limits only the networks listed, and weir's exempt names those it leaves out".into());
    }
    let mut exempt: Vec<&(String, IpAddr, u8, String)> = Vec::new();
    for entry in &geo.entries {
        match key_of(&entry.3) {
            "" => exempt.push(entry),
            key if key == limited => {}
            key => {
                return Err(format!(
                    "clients get two keys ({limited} and {key}): weir's limit has one"
                ))
            }
        }
    }
    // geo's longest match limits a network inside one left out; `exempt` leaves out all of it.
    for entry in &geo.entries {
        let inside = |outer: &&&(String, IpAddr, u8, String)| {
            outer.0 != entry.0 && holds((outer.1, outer.2), (entry.1, entry.2))
        };
        if !key_of(&entry.3).is_empty() {
            if let Some(outer) = exempt.iter().find(inside) {
                return Err(format!(
                    "{} is limited inside {}, which is left out: weir's exempt leaves out a whole network",
                    entry.0, outer.0
                ));
            }
        }
    }
    Ok((
        limited.to_string(),
        exempt.into_iter().map(|entry| entry.0.clone()).collect(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn directive(name: &str, args: &[&str], block: Option<Vec<Directive>>) -> Directive {
        Directive::at_line_one(name, args, block)
    }

    fn geo(entries: &[(&str, &str)]) -> Geo {
        let block = entries
            .iter()
            .map(|(network, value)| directive(network, &[value], None))
            .collect();
        parse(&directive("geo", &["$blocked"], Some(block))).unwrap()
    }

    #[test]
    fn a_geo_becomes_access_entries_longest_prefix_first() {
        let map = geo(&[
            ("default", "0"),
            ("10.0.0.0/8", "1"),
            ("10.1.0.0/16", "0"),
            ("192.0.2.7", "1"),
        ]);
        assert_eq!(
            access(&[(&map, &Test::Set)], false).unwrap(),
            [
                "deny 192.0.2.7",
                "allow 10.1.0.0/16",
                "deny 10.0.0.0/8",
                "allow all"
            ]
        );
        // An allow-list: `if ($allowed = 0)`.
        let allowed = geo(&[("default", "0"), ("10.0.0.0/8", "1")]);
        let is_zero = Test::Is("0".into());
        assert_eq!(
            access(&[(&allowed, &is_zero)], false).unwrap(),
            ["allow 10.0.0.0/8", "deny all"]
        );
        // Both at once (a server's if and a location's): refused where either refuses.
        assert_eq!(
            access(&[(&map, &Test::Set), (&allowed, &is_zero)], false).unwrap(),
            [
                "deny 192.0.2.7",
                "allow 10.1.0.0/16",
                "deny 10.0.0.0/8",
                "deny all"
            ]
        );
        // Beside the route's own rules: the refused networks first, when nothing inside them is
        // let through and nothing is refused by default.
        let plain = geo(&[("10.0.0.0/8", "1"), ("192.0.2.7", "1")]);
        assert_eq!(
            access(&[(&plain, &Test::Set)], true).unwrap(),
            ["deny 192.0.2.7", "deny 10.0.0.0/8"]
        );
        assert!(access(&[(&map, &Test::Set)], true).is_err());
        assert!(access(&[(&allowed, &is_zero)], true).is_err());
    }

    #[test]
    fn only_a_geo_of_the_client_address_with_networks_is_carried() {
        let ranges = directive(
            "geo",
            &["$blocked"],
            Some(vec![directive("ranges", &[], None)]),
        );
        assert!(parse(&ranges).is_err());
        let forwarded = directive("geo", &["$http_x_forwarded_for", "$blocked"], Some(vec![]));
        assert!(parse(&forwarded).is_err());
        assert!(parse(&directive(
            "geo",
            &["$blocked"],
            Some(vec![directive("10.0.0.0/33", &["1"], None)])
        ))
        .is_err());
    }

    #[test]
    fn an_if_on_a_variable_that_returns_403_is_read() {
        let ret = || Some(vec![directive("return", &["403"], None)]);
        assert_eq!(
            geo_if(&directive("if", &["($blocked)"], ret())),
            Some(("blocked".to_string(), Test::Set))
        );
        assert_eq!(
            geo_if(&directive("if", &["(", "$allowed", "=", "0", ")"], ret())),
            Some(("allowed".to_string(), Test::Is("0".into())))
        );
        assert_eq!(
            geo_if(&directive("if", &["($allowed != \"yes\")"], ret())),
            Some(("allowed".to_string(), Test::IsNot("yes".into())))
        );
        assert_eq!(
            geo_if(&directive(
                "if",
                &["($blocked)"],
                Some(vec![directive("return", &["404"], None)])
            )),
            None
        );
    }
}
