//! The engine's Hub parameters: what `hub` announces and what `set-param` changes.

use tablero_draughts::RuleSet;
use tablero_games::{Evaluation, Level};

use crate::command::quote;

/// The `variant` values tablero announces, with the rule set of each: Scan's name
/// `normal` for international draughts, then tablero's own rule-set ids.
pub const VARIANTS: [(&str, RuleSet); 6] = [
    ("normal", RuleSet::International),
    ("english", RuleSet::English),
    ("brazilian", RuleSet::Brazilian),
    ("russian", RuleSet::Russian),
    ("spanish", RuleSet::Spanish),
    ("italian", RuleSet::Italian),
];

/// Other names accepted for a variant: tablero's id and pydraughts' name for
/// international draughts, pydraughts' name for English draughts.
const ALIASES: [(&str, RuleSet); 3] = [
    ("international", RuleSet::International),
    ("standard", RuleSet::International),
    ("american", RuleSet::English),
];

/// The rule set a `variant` value names, if any (case-insensitive).
#[must_use]
pub fn variant_rule_set(name: &str) -> Option<RuleSet> {
    VARIANTS
        .iter()
        .chain(ALIASES.iter())
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|&(_, r)| r)
}

/// The `variant` value tablero announces for a rule set.
#[must_use]
pub fn variant_name(rule_set: RuleSet) -> &'static str {
    VARIANTS
        .iter()
        .find(|(_, r)| *r == rule_set)
        .map_or("normal", |&(n, _)| n)
}

/// The parameters as set by the GUI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Params {
    pub(crate) variant: RuleSet,
    pub(crate) level: Level,
    pub(crate) hash_mb: usize,
    pub(crate) threads: usize,
    /// `nnue`: International draughts with the built-in network, or the hand
    /// evaluation alone (the other rule sets have no network).
    pub(crate) evaluation: Evaluation,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            variant: RuleSet::International,
            level: Level::MAX,
            hash_mb: 64,
            threads: 1,
            evaluation: Evaluation::default(),
        }
    }
}

/// What a successful `set-param` asks of the session beyond storing the value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Effect {
    /// Nothing more.
    None,
    /// The hash table must be rebuilt at its new size.
    Resize,
    /// The rule set changed: back to its start position, a new game.
    NewRuleSet,
    /// The evaluation changed (`nnue`).
    Evaluation,
}

impl Params {
    /// The `param` lines of the `hub` answer.
    pub(crate) fn announce() -> Vec<String> {
        let d = Params::default();
        let names: Vec<&str> = VARIANTS.iter().map(|&(n, _)| n).collect();
        vec![
            format!(
                "param name=variant value={} type=enum values={}",
                variant_name(d.variant),
                quote(&names.join(" "))
            ),
            format!("param name=level value={} type=int min=1 max=10", d.level),
            format!(
                "param name=hash value={} type=int min=1 max=65536",
                d.hash_mb
            ),
            format!(
                "param name=threads value={} type=int min=1 max=256",
                d.threads
            ),
            format!(
                "param name=nnue value={} type=bool",
                d.evaluation == Evaluation::Network
            ),
        ]
    }

    /// The level to play at in a game, `None` for full strength.
    pub(crate) fn level(&self) -> Option<Level> {
        (self.level != Level::MAX).then_some(self.level)
    }

    /// Applies `set-param name=<name> value=<value>`.
    ///
    /// # Errors
    ///
    /// A message naming the parameter and why the value is refused, or that the
    /// parameter is unknown; nothing changes then.
    pub(crate) fn set(&mut self, name: &str, value: Option<&str>) -> Result<Effect, String> {
        let text = value.ok_or_else(|| format!("parameter {name}: missing value=..."))?;
        let int = |min: u64, max: u64| -> Result<u64, String> {
            match text.trim().parse::<u64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(n),
                _ => Err(format!(
                    "parameter {name}: value {text:?} is not a whole number from {min} to {max}"
                )),
            }
        };
        let usize_of = |n: u64| usize::try_from(n).expect("parameter ranges fit in usize");
        match name.to_ascii_lowercase().as_str() {
            "variant" => {
                let rule_set = variant_rule_set(text).ok_or_else(|| {
                    let names: Vec<&str> = VARIANTS.iter().map(|&(n, _)| n).collect();
                    format!(
                        "parameter variant: unknown variant {text:?} (variants: {})",
                        names.join(", ")
                    )
                })?;
                let changed = rule_set != self.variant;
                self.variant = rule_set;
                Ok(if changed {
                    Effect::NewRuleSet
                } else {
                    Effect::None
                })
            }
            "level" => {
                let n = u8::try_from(int(1, 10)?).expect("at most 10");
                self.level = Level::new(n).expect("1 to 10 is a level");
                Ok(Effect::None)
            }
            "hash" => {
                let mb = usize_of(int(1, 65_536)?);
                let changed = mb != self.hash_mb;
                self.hash_mb = mb;
                Ok(if changed {
                    Effect::Resize
                } else {
                    Effect::None
                })
            }
            "threads" => {
                self.threads = usize_of(int(1, 256)?);
                Ok(Effect::None)
            }
            "nnue" => {
                self.evaluation = match text.trim().to_ascii_lowercase().as_str() {
                    "true" => Evaluation::Network,
                    "false" => Evaluation::Hand,
                    _ => {
                        return Err(format!(
                            "parameter nnue: value {text:?} is not true or false"
                        ));
                    }
                };
                Ok(Effect::Evaluation)
            }
            _ => Err(format!("unknown parameter {name:?}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_names_and_aliases() {
        for (name, rule_set) in VARIANTS {
            assert_eq!(variant_rule_set(name), Some(rule_set));
            assert_eq!(variant_name(rule_set), name);
        }
        for rule_set in RuleSet::ALL {
            assert!(VARIANTS.iter().any(|&(_, r)| r == rule_set), "{rule_set}");
        }
        assert_eq!(variant_rule_set("Standard"), Some(RuleSet::International));
        assert_eq!(variant_rule_set("american"), Some(RuleSet::English));
        assert_eq!(variant_rule_set("frisian"), None);
    }

    #[test]
    fn set_checks_names_and_ranges() {
        let mut p = Params::default();
        assert_eq!(p.set("variant", Some("russian")), Ok(Effect::NewRuleSet));
        assert_eq!(p.set("variant", Some("russian")), Ok(Effect::None));
        assert!(p.set("variant", Some("killer")).is_err());
        assert_eq!(p.variant, RuleSet::Russian);
        assert_eq!(p.set("level", Some("3")), Ok(Effect::None));
        assert_eq!(p.level().map(Level::get), Some(3));
        assert!(p.set("level", Some("11")).is_err());
        assert_eq!(p.set("hash", Some("16")), Ok(Effect::Resize));
        assert!(p.set("hash", Some("0")).is_err());
        assert!(p.set("threads", None).is_err());
        assert!(p.set("book", Some("false")).is_err());
        assert_eq!(p.set("nnue", Some("false")), Ok(Effect::Evaluation));
        assert_eq!(p.evaluation, Evaluation::Hand);
        assert!(p.set("nnue", Some("maybe")).is_err());
        assert_eq!(p.evaluation, Evaluation::Hand);
        assert_eq!(p.set("NNUE", Some("True")), Ok(Effect::Evaluation));
        assert_eq!(p.evaluation, Evaluation::Network);
        assert_eq!(p.level().map(Level::get), Some(3));
        assert_eq!(p.hash_mb, 16);
    }
}
