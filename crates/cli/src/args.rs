//! Command-line arguments shared by several commands.

use clap::{Args, ValueEnum};
use nana_shogi::{fen, Position, Rules, Variant};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Switch {
    On,
    Off,
}

impl Switch {
    fn on(self) -> bool {
        self == Switch::On
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum VariantArg {
    /// Version 3.0: short rook.
    Current,
    /// Version 2.1: unlimited rook.
    Original,
}

/// The rule flags every command takes.
#[derive(Debug, Clone, Args)]
pub struct RuleArgs {
    /// Rule set.
    #[arg(long = "rules", value_enum, default_value = "current")]
    pub variant: VariantArg,
    /// R1: a drop may not stalemate.
    #[arg(long, value_enum, default_value = "on")]
    pub drop_stalemate: Switch,
    /// R2S: a player with pieces in hand may not stalemate.
    #[arg(long, value_enum, default_value = "on")]
    pub hand_stalemate: Switch,
}

impl RuleArgs {
    pub fn rules(&self) -> Rules {
        let variant = match self.variant {
            VariantArg::Current => Variant::Current,
            VariantArg::Original => Variant::Original,
        };
        Rules { variant, drop_stalemate: self.drop_stalemate.on(), hand_stalemate: self.hand_stalemate.on() }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SolveVariant {
    Current,
    Original,
    Both,
}

/// The rule flags of `solve`, where `--rules both` is the default.
#[derive(Debug, Clone, Args)]
pub struct SolveRuleArgs {
    /// Rule set(s) to solve.
    #[arg(long = "rules", value_enum, default_value = "both")]
    pub variant: SolveVariant,
    /// R1: a drop may not stalemate.
    #[arg(long, value_enum, default_value = "on")]
    pub drop_stalemate: Switch,
    /// R2S: a player with pieces in hand may not stalemate.
    #[arg(long, value_enum, default_value = "on")]
    pub hand_stalemate: Switch,
}

impl SolveRuleArgs {
    pub fn rule_sets(&self) -> Result<Vec<Rules>, String> {
        let variants = match self.variant {
            SolveVariant::Current => vec![Variant::Current],
            SolveVariant::Original => vec![Variant::Original],
            SolveVariant::Both => Variant::ALL.to_vec(),
        };
        Ok(variants
            .into_iter()
            .map(|variant| Rules {
                variant,
                drop_stalemate: self.drop_stalemate.on(),
                hand_stalemate: self.hand_stalemate.on(),
            })
            .collect())
    }
}

/// `--position POS` (default: the start).
#[derive(Debug, Clone, Args)]
pub struct PositionArg {
    /// Position string, e.g. "3/3/3 b KRBkrb 1" (default: the start).
    #[arg(long)]
    pub position: Option<String>,
}

impl PositionArg {
    pub fn position(&self, rules: &Rules) -> Result<Position, String> {
        parse_position(self.position.as_deref(), rules)
    }
}

pub fn parse_position(s: Option<&str>, rules: &Rules) -> Result<Position, String> {
    match s {
        None => Ok(Position::start()),
        Some(s) => fen::parse_position(s, rules.variant).map_err(|e| e.to_string()),
    }
}
