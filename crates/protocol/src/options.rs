//! The engine's options as the handshake lists them, in each dialect's names.

use nana_front::Dialect;

/// An option of the handshake.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineOption {
    /// Its name as UCI writes it; [`dialect_name`] gives USI's.
    pub name: String,
    pub kind: OptionKind,
}

/// An option's type with its default and range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionKind {
    Combo { default: &'static str, vars: Vec<&'static str> },
    Check(bool),
    Spin { default: i64, min: i64, max: i64 },
    String(String),
}

/// The name of an option in a dialect: over USI, `UCI_X` is `USI_X` and `MultiPV` is
/// `USI_MultiPV`, as Fairy-Stockfish names them (its `UCI::option_name`).
pub fn dialect_name(name: &str, dialect: Dialect) -> String {
    match (dialect, name) {
        (Dialect::Uci, _) => name.to_string(),
        (Dialect::Usi, "MultiPV") => "USI_MultiPV".to_string(),
        (Dialect::Usi, _) => match name.strip_prefix("UCI_") {
            Some(rest) => format!("USI_{rest}"),
            None => name.to_string(),
        },
    }
}

/// The name a GUI sent, as UCI writes it: `USI_Variant` and `USI_MultiPV` are read in either
/// dialect (a GUI written for Fairy-Stockfish 11.1 sends `UCI_Variant` over USI too).
pub fn uci_name(name: &str) -> String {
    if name.eq_ignore_ascii_case("USI_MultiPV") {
        return "MultiPV".to_string();
    }
    match name.get(..4) {
        Some(prefix) if prefix.eq_ignore_ascii_case("USI_") => format!("UCI_{}", &name[4..]),
        _ => name.to_string(),
    }
}

impl EngineOption {
    /// The handshake's line.
    pub fn line(&self, dialect: Dialect) -> String {
        let name = dialect_name(&self.name, dialect);
        match &self.kind {
            OptionKind::Combo { default, vars } => {
                let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
                format!("option name {name} type combo default {default}{vars}")
            }
            OptionKind::Check(default) => format!("option name {name} type check default {default}"),
            OptionKind::Spin { default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            OptionKind::String(default) if default.is_empty() => {
                format!("option name {name} type string default <empty>")
            }
            OptionKind::String(default) => format!("option name {name} type string default {default}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usi_names_as_fairy_stockfish_writes_them() {
        assert_eq!(dialect_name("UCI_Variant", Dialect::Usi), "USI_Variant");
        assert_eq!(dialect_name("MultiPV", Dialect::Usi), "USI_MultiPV");
        assert_eq!(dialect_name("DobutsuRules", Dialect::Usi), "DobutsuRules");
        assert_eq!(dialect_name("UCI_Variant", Dialect::Uci), "UCI_Variant");
        assert_eq!(uci_name("USI_Variant"), "UCI_Variant");
        assert_eq!(uci_name("usi_multipv"), "MultiPV");
        assert_eq!(uci_name("UCI_Variant"), "UCI_Variant");
        let combo = EngineOption {
            name: "UCI_Variant".into(),
            kind: OptionKind::Combo { default: "nana", vars: vec!["nana", "dobutsu"] },
        };
        assert_eq!(
            combo.line(Dialect::Usi),
            "option name USI_Variant type combo default nana var nana var dobutsu"
        );
    }
}
